/** Session statistics from review.timeline: duration, turns, tools by outcome, approvals, errors, usage per model. */
import type { SessionStats } from "../../../shared/review";
import { formatCost, formatDuration, formatTokens } from "../lib/format";
import { modelLabel, useModelsStore } from "../stores/models-store";
import { Dialog } from "./dialog";
import { approvalsSummary, formatDateTime } from "./replay-format";
import { useReplayStore } from "./replay-store";

export function StatsView({ stats }: { stats: SessionStats }) {
  const models = useModelsStore((s) => s.models);
  return (
    <div className="replay-stats">
      <dl className="stats-grid">
        <dt>Duration</dt>
        <dd>{formatDuration(stats.durationMs)}</dd>
        <dt>Started</dt>
        <dd>{stats.startedAt !== null ? formatDateTime(stats.startedAt) : "—"}</dd>
        <dt>Entries</dt>
        <dd>{stats.entries}</dd>
        <dt>Turns</dt>
        <dd>{stats.turns}</dd>
        <dt>Assistant messages</dt>
        <dd>{stats.assistantMessages}</dd>
        <dt>Model switches</dt>
        <dd>{stats.modelSwitches}</dd>
        <dt>Compactions</dt>
        <dd>{stats.compactions}</dd>
        <dt>Approvals</dt>
        <dd>{approvalsSummary(stats.approvals)}</dd>
        <dt>Errors</dt>
        <dd>
          {stats.errors.requests} failed request{stats.errors.requests === 1 ? "" : "s"}, {stats.errors.retries} retr
          {stats.errors.retries === 1 ? "y" : "ies"}, {stats.errors.tools} failed tool call{stats.errors.tools === 1 ? "" : "s"},{" "}
          {stats.errors.aborted} aborted
        </dd>
      </dl>

      <h3>Tool calls ({stats.toolCalls.total})</h3>
      {stats.toolCalls.byTool.length === 0 ? (
        <p className="muted small">No tool was called.</p>
      ) : (
        <table className="stats-table" aria-label="Tool calls by tool and outcome">
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Calls</th>
              <th scope="col">OK</th>
              <th scope="col">Error</th>
              <th scope="col">Denied</th>
              <th scope="col">Aborted</th>
              <th scope="col">No result</th>
            </tr>
          </thead>
          <tbody>
            {stats.toolCalls.byTool.map((t) => (
              <tr key={t.toolName}>
                <th scope="row">{t.toolName}</th>
                <td>{t.total}</td>
                <td>{t.ok}</td>
                <td>{t.error}</td>
                <td>{t.denied}</td>
                <td>{t.aborted}</td>
                <td>{t.missing}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h3>Tokens and cost per model</h3>
      <table className="stats-table" aria-label="Tokens and cost per model">
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Messages</th>
            <th scope="col">Input</th>
            <th scope="col">Output</th>
            <th scope="col">Cache read</th>
            <th scope="col">Cache write</th>
            <th scope="col">Total</th>
            <th scope="col">Cost</th>
          </tr>
        </thead>
        <tbody>
          {stats.byModel.map((m) => (
            <tr key={`${m.model.provider}/${m.model.api}/${m.model.id}`}>
              <th scope="row" title={`${m.model.provider} · ${m.model.api} · ${m.model.id}`}>
                {modelLabel(models, m.model)}
              </th>
              <td>{m.messages}</td>
              <td>{formatTokens(m.input)}</td>
              <td>{formatTokens(m.output)}</td>
              <td>{formatTokens(m.cacheRead)}</td>
              <td>{formatTokens(m.cacheWrite)}</td>
              <td>{formatTokens(m.totalTokens)}</td>
              <td>{formatCost(m.cost)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">All models</th>
            <td>{stats.assistantMessages}</td>
            <td>{formatTokens(stats.totals.input)}</td>
            <td>{formatTokens(stats.totals.output)}</td>
            <td>{formatTokens(stats.totals.cacheRead)}</td>
            <td>{formatTokens(stats.totals.cacheWrite)}</td>
            <td>{formatTokens(stats.totals.totalTokens)}</td>
            <td>{formatCost(stats.totals.cost)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

export function StatsPanel() {
  const stats = useReplayStore((s) => s.data?.stats ?? null);
  const setPanel = useReplayStore((s) => s.setPanel);
  if (!stats) return null;
  return (
    <Dialog title="Session statistics" onClose={() => setPanel(null)} wide>
      <StatsView stats={stats} />
    </Dialog>
  );
}
