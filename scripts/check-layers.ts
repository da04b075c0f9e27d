import { checkLayers } from "./layers";

const violations = checkLayers(process.cwd());
for (const v of violations) console.error(`${v.file}: imports "${v.specifier}" — ${v.rule}`);
if (violations.length > 0) {
  console.error(`layers: ${violations.length} violation(s)`);
  process.exit(1);
}
console.log("layers: ok");
