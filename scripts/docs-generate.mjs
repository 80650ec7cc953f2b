#!/usr/bin/env node
// Rewrites the generated parts of docs/ (src/report/generatedDocs.ts lists them: the rule list, the
// facet registry's page, ...)
// from the built dist/, between their markers. `--check` writes nothing and exits 1 when a page is
// not current. Run `npm run build` first (`npm run docs` does).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { generatedPages, regenerate } = await import('../dist/report/generatedDocs.js');
const check = process.argv.includes('--check');

let stale = 0;
for (const page of generatedPages()) {
  const file = `${root}${page.file}`;
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const after = regenerate(page, before);
  if ('missing' in after) {
    process.stderr.write(`${page.file}: a generated block's markers are missing or out of order; put\n  ${after.missing.begin}\n  ${after.missing.end}\nwhere it belongs\n`);
    process.exit(2);
  }
  if (after.text === before) {
    process.stdout.write(`${page.file}: current\n`);
  } else if (check) {
    stale += 1;
    process.stdout.write(`${page.file}: not current; run \`npm run docs\`\n`);
  } else {
    writeFileSync(file, after.text);
    process.stdout.write(`${page.file}: rewritten\n`);
  }
}
process.exit(stale > 0 ? 1 : 0);
