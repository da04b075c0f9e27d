/**
 * Error boundaries: whatever a stored entry holds, the app stays usable.
 *
 * - `EntryBoundary` wraps one row (a transcript entry, a tool card, a replay
 *   step): a row that cannot render becomes one small row that says so and
 *   names the entry (its seq and type); the other rows render as usual.
 * - `PanelBoundary` wraps a panel (the sidebar, the session, the diff panel, a
 *   dialog, replay): a panel that cannot render says so with "Try again", and
 *   the rest of the app keeps working.
 *
 * React still reports each caught error (console.error), so a bug is not hidden.
 */
import { Component, type CSSProperties, type ReactNode } from "react";

interface BoundaryProps {
  children: ReactNode;
  /** What to show instead of the children once they threw; `retry` renders them again. */
  fallback: (error: Error, retry: () => void) => ReactNode;
  /** A new value renders the children again (the entry changed, e.g. it streamed on). */
  resetKey?: unknown;
}

interface BoundaryState {
  error: Error | null;
  resetKey: unknown;
}

class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return Object.is(props.resetKey, state.resetKey) ? null : { error: null, resetKey: props.resetKey };
  }

  private retry = () => this.setState({ error: null });

  override render(): ReactNode {
    return this.state.error ? this.props.fallback(this.state.error, this.retry) : this.props.children;
  }
}

/** The error's first line, short: it is shown to the user and may quote stored text. */
function shortMessage(error: Error): string {
  const line = (error.message || error.name || "unknown error").split("\n")[0];
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

/**
 * One row: `label` names the entry ("entry 12 (assistant message)"); `className` and `style` place the
 * fallback where the row was (rows of a virtualised list are positioned one by one).
 */
export function EntryBoundary({
  label,
  resetKey,
  className,
  style,
  children,
}: {
  label: string;
  resetKey?: unknown;
  className?: string;
  style?: CSSProperties;
  children: ReactNode;
}) {
  return (
    <ErrorBoundary
      resetKey={resetKey}
      fallback={(error) => (
        <div
          className={`entry-error${className ? ` ${className}` : ""}`}
          style={style}
          role="note"
          aria-label="Entry could not be shown"
          title={shortMessage(error)}
        >
          This {label} could not be shown.
        </div>
      )}
    >
      {children}
    </ErrorBoundary>
  );
}

/** A panel: `name` says which ("the session", "the diff view"); a new `resetKey` (the step shown) tries again. */
export function PanelBoundary({
  name,
  resetKey,
  className,
  children,
}: {
  name: string;
  resetKey?: unknown;
  className?: string;
  children: ReactNode;
}) {
  return (
    <ErrorBoundary
      resetKey={resetKey}
      fallback={(error, retry) => (
        <div className={`panel-error${className ? ` ${className}` : ""}`} role="alert">
          <p>
            {name.charAt(0).toUpperCase() + name.slice(1)} could not be shown: <span className="muted">{shortMessage(error)}</span>
          </p>
          <button type="button" onClick={retry}>
            Try again
          </button>
        </div>
      )}
    >
      {children}
    </ErrorBoundary>
  );
}
