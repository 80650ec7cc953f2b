// The `page` line of `npm run bench`: the conformance page (`drift diff --format html`) of the
// bench's scaled set, 24 providers × 14 scenarios: its size (issue 40 asks at most 1 MiB) and how
// long headless Chromium takes to render it (at most 1 s), measured here and not asserted in a test.
// The scaled set is the `scale` line's: synthetic adapters reusing the bundled example functions
// under many names, and a generated scenario set; no goldens, so every cell also has its
// golden-missing finding, as a new set's first run does.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { median, syntheticProject } from './bench-util.mjs';
import { launchChromium } from './chromium.mjs';

const run = promisify(execFile);



/** Prints the `page` line: the page's size, and medians over `reps` fresh tabs of its load and first paint. */
export async function benchPage(root, { providers = 24, scenarios = 14, reps = 5 } = {}) {
  const dir = syntheticProject(root, providers, scenarios);
  const cache = mkdtempSync(path.join(os.tmpdir(), 'drift-bench-page-cache-'));
  try {
    const file = path.join(dir, 'drift-report.html');
    const began = performance.now();
    try {
      await run(process.execPath, [path.join(root, 'bin/drift.js'), 'diff', '--format', 'html', '--output', file], { cwd: dir, maxBuffer: 64 * 2 ** 20, env: { ...process.env, CI: '', NO_COLOR: '1', DRIFT_CACHE_DIR: cache } });
    } catch (error) {
      // Exit 1: findings (every golden is missing), the page written all the same.
      if (error.code !== 1) throw new Error(`bench: drift diff --format html failed (${error.code}): ${error.stderr}`);
    }
    const diffMs = performance.now() - began;
    const bytes = statSync(file).size;
    const browser = await launchChromium();
    const loads = [];
    const paints = [];
    const cells = [];
    try {
      for (let i = 0; i < reps; i += 1) {
        const tab = await browser.newPage({ viewport: { width: 1400, height: 900 } });
        const start = performance.now();
        await tab.goto(pathToFileURL(file).href, { waitUntil: 'load' });
        loads.push(performance.now() - start);
        const timing = await tab.evaluate(() => ({
          paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
          cells: document.querySelectorAll('#matrix-table td').length,
        }));
        paints.push(timing.paint);
        cells.push(timing.cells);
        await tab.close();
      }
    } finally {
      await browser.close();
    }
    console.log(
      `page   the conformance page of ${providers} providers × ${scenarios} scenarios: ${(bytes / 1024).toFixed(0)} KiB (${bytes} bytes; at most 1 MiB: ${bytes <= 2 ** 20 ? 'yes' : 'NO'}), ${cells[0]} matrix cells; ` +
        `drift diff --format html ${(diffMs / 1000).toFixed(1)} s; headless Chromium, ${reps} fresh tabs: load median ${median(loads).toFixed(0)} ms (runs: ${loads.map((ms) => ms.toFixed(0)).join(', ')}), first contentful paint median ${median(paints).toFixed(0)} ms; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  }
}

// Run alone: node scripts/bench-page.mjs (after npm run build).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchPage(path.resolve(path.dirname(new URL(import.meta.url).pathname), '..'));
