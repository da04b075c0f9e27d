import { checkCitations } from "./doc-citations";

const problems = checkCitations(process.cwd());
for (const p of problems) console.error(`${p.file}:${p.line}: ${p.citation} — ${p.problem}`);
if (problems.length > 0) {
  console.error(`doc citations: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log("doc citations: ok");
