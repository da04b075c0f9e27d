import type { SessionSummary } from "../../../shared/api";

/**
 * Where a fork or a rewound copy came from, in words: the original, a fork and a "(rewound)" copy
 * share their title, so the list says which is which.
 */
export function originOf(session: SessionSummary, parentTitle: string | null): string | null {
  if (!session.parentSessionId || session.parentToolCallId !== undefined) return null;
  const rewound = session.title.endsWith(" (rewound)");
  const from = parentTitle !== null ? `“${parentTitle}”` : "a deleted session";
  return rewound ? `rewound copy of ${from}` : `fork of ${from}`;
}
