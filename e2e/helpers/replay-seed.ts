/** The texts and ids of the session replay-host-main.ts seeds, shared with the specs that check them. */

export const REPLAY_FILES: Record<string, string> = {
  "README.md": "# Demo project\n\nA tiny project used by the end-to-end tests.\n",
  "src/math.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
};

export const REPLAY_SEED = {
  title: "Review: notes in README and math",
  user1: "Add a review line to README.md.",
  readIntro: "I will read README.md first.",
  /** Short: every provider accepts it as stored. */
  readId: "toolu_01ReadReadme",
  /** 48 characters: valid for Anthropic, over OpenAI Chat's 40, so rewritten after the switch. */
  longEditId: "toolu_01EditReadmeWithAReviewLine0123456789abcde",
  readmeOld: "A tiny project used by the end-to-end tests.\n",
  readmeNew: "A tiny project used by the end-to-end tests.\n\nReviewed in replay.\n",
  readmeLine: "Reviewed in replay.",
  answer1: "Done: README.md now ends with a review line.",
  user2: "Now make add() in src/math.ts log its inputs.",
  mathEditId: "call_math_1",
  mathOld: "  return a + b;",
  mathNew: "  console.log(a, b);\n  return a + b;",
  mathLine: "console.log(a, b);",
  bashId: "call_test_1",
  denyReason: "No tests in this demo.",
  answer2: "Edited src/math.ts; I did not run the tests.",
  user3: "Summarise what changed.",
  answer3: "Summary: README.md gained a review line and add() logs its inputs.",
  forkAnswerPrefix: "Fork answer from",
} as const;

export interface ReplayHostInfo {
  url: string;
  sessionId: string;
  title: string;
}
