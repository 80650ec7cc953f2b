#!/usr/bin/env node
// Rewrites the README's rule list from the rules' meta (the built dist/), between its markers.
// `--check` writes nothing and exits 1 when the list is not current. Run `npm run build` first.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const readmeFile = fileURLToPath(new URL('../README.md', import.meta.url));
const { RULE_METAS } = await import('../dist/compare/rules/index.js');
const { withRulesList, README_RULES_BEGIN, README_RULES_END } = await import('../dist/report/rulesText.js');

const before = readFileSync(readmeFile, 'utf8');
const after = withRulesList(before, RULE_METAS);
if (after === undefined) {
  process.stderr.write(`README.md: the rule list's markers are missing or out of order; put\n  ${README_RULES_BEGIN}\n  ${README_RULES_END}\nwhere the list belongs\n`);
  process.exit(2);
}
if (process.argv.includes('--check')) {
  if (after !== before) {
    process.stdout.write('README.md: the rule list is not current; run `npm run readme`\n');
    process.exit(1);
  }
  process.exit(0);
}
if (after !== before) writeFileSync(readmeFile, after);
process.stdout.write(after === before ? 'README.md: the rule list is current\n' : 'README.md: rule list rewritten\n');
