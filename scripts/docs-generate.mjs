#!/usr/bin/env node
// Rewrites the generated parts of docs/ (src/report/generatedDocs.ts lists them: the rule list, the
// facet registry's page, ...)
// from the built dist/, between their markers, and (but with --check) the conformance page's example
// with its screenshot. `--check` writes nothing and exits 1 when a page is
// not current. Run `npm run build` first (`npm run docs` does).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchChromium } from './chromium.mjs';

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
// The page needs a whole run of the bundled set: --check leaves it to the docs test, which has one,
// and a copy of drift without the bundled project (no drift.config.yaml) has no set to render.
if (!check && existsSync(`${root}drift.config.yaml`)) await conformancePage();
process.exit(stale > 0 ? 1 : 0);

/**
 * docs/report-page.example.html: the bundled set's conformance page as `drift diff --format html`
 * writes it (test/unit/docs.test.ts checks it is current), and a screenshot of it,
 * docs/report-page.png, taken in the machine's Chromium through playwright-core (the PNG is not
 * checked: pixels differ between machines).
 */
async function conformancePage() {
  const file = `${root}docs/report-page.example.html`;
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const out = mkdtempSync(path.join(os.tmpdir(), 'drift-docs-page-'));
  try {
    const rendered = path.join(out, 'page.html');
    // Written beside docs/ would be the same bytes: its places link to the project root from docs/.
    const run = spawnSync(process.execPath, [`${root}bin/drift.js`, 'diff', '--format', 'html', '--output', rendered, '--link-base', '../'], { cwd: root, encoding: 'utf8', env: { ...process.env, CI: '', NO_COLOR: '1' } });
    if (run.status !== 0) {
      process.stderr.write(`drift diff --format html exited ${run.status}:\n${run.stderr}`);
      process.exit(2);
    }
    const after = readFileSync(rendered, 'utf8');
    if (after === before) process.stdout.write('docs/report-page.example.html: current\n');
    else {
      writeFileSync(file, after);
      process.stdout.write('docs/report-page.example.html: rewritten\n');
    }
    await screenshot(file, `${root}docs/report-page.png`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The top of the page with a cell focused, so its detail panel shows (the browser tests' Chromium and flags). */
async function screenshot(page, png) {
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await tab.goto(pathToFileURL(page).href);
    const accepted = tab.locator('#matrix-table td.k-accepted').first();
    if ((await accepted.count()) > 0) await accepted.focus();
    await tab.screenshot({ path: png });
    process.stdout.write(`${path.relative(root, png)}: rewritten\n`);
  } finally {
    await browser.close();
  }
}
