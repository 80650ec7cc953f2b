/**
 * The conformance page in a real browser (the machine's Chromium through playwright-core): the
 * bundled set's page and a seeded set's, each rendered once by the built CLI and opened once, then
 * asserted as a person sees them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/compare/findings.js';
import { renderJson } from '../../src/report/json.js';
import { buildReport } from '../../src/report/model.js';
import { runDrift } from '../helpers/drift.js';
import { SEEDS, seeded } from '../helpers/mutationSeeds.js';
import { bundledProviders, REPO, tempDir } from '../helpers/project.js';
import { launchChromium, openPage, type OpenedPage } from './chromium.js';

const SEED = SEEDS.find((seed) => seed.expected.includes('div:node-pool:gated-on:aks'))!;
const SHA = '0123456789abcdef0123456789abcdef01234567';
const GITHUB = { GITHUB_SERVER_URL: 'https://github.example', GITHUB_REPOSITORY: 'modelplane/drift' };

let browser: Browser;
let bundled: OpenedPage;
let mutated: OpenedPage;
let hostile: OpenedPage;
let dialogs = 0;
let seededComposer: string;
const cleanups: Array<() => void> = [];

beforeAll(async () => {
  const out = tempDir('drift-page-');
  cleanups.push(out.remove);
  const copy = seeded(SEED);
  cleanups.push(copy.remove);
  seededComposer = readFileSync(path.join(copy.dir, 'providers', SEED.provider, 'function', 'composer.py'), 'utf8');
  const bundledFile = path.join(out.dir, 'bundled.html');
  const seededFile = path.join(out.dir, 'seeded.html');
  const hostileJson = path.join(out.dir, 'hostile.json');
  const hostileFile = path.join(out.dir, 'hostile.html');
  writeFileSync(hostileJson, renderJson(hostileReport()));
  const [clean, dirty, started] = await Promise.all([
    runDrift(['diff', '--format', 'html', '-o', bundledFile], REPO),
    runDrift(['diff', ...SEED.scenarios.flatMap((scenario) => ['-s', scenario]), '--format', 'html', '-o', seededFile, '--github-sha', SHA], copy.dir, GITHUB),
    launchChromium(),
  ]);
  browser = started;
  expect(clean.exitCode, clean.all).toBe(0);
  expect(dirty.exitCode, dirty.all).toBe(1);
  const rendered = await runDrift(['report', '--from', hostileJson, '--format', 'html', '-o', hostileFile], out.dir);
  expect(rendered.exitCode, rendered.all).toBe(0);
  [bundled, mutated, hostile] = await Promise.all([openPage(browser, bundledFile), openPage(browser, seededFile), openPage(browser, hostileFile)]);
  hostile.page.on('dialog', (dialog) => {
    dialogs += 1;
    void dialog.dismiss();
  });
});

afterAll(async () => {
  await browser?.close();
  for (const cleanup of cleanups) cleanup();
});

/**
 * A report such as a hostile pull request's code could write, valid against the schema: markup,
 * script and links in every string it holds.
 */
function hostileReport() {
  const evil = (n: number) => `</td></table><script>alert(${n})</script><img src="https://evil.example/${n}" onerror="alert(${n})"><a href="javascript:alert(${n})">x</a>`;
  const provider = `p"><svg onload=alert(0)>`;
  const finding: Finding = {
    id: evil(1),
    type: 'divergence',
    class: 'behavioral',
    provider,
    scenarios: [evil(2)],
    subject: evil(3),
    facet: evil(4),
    message: evil(5),
    values: { [provider]: evil(6), eks: 'a', gke: 'a' },
    consensus: 'a',
    where: [`${evil(7)}:1`, 'eks: javascript:alert(8):2'],
    hint: evil(9),
  };
  const golden: Finding = { id: 'g', type: 'golden', class: 'behavioral', provider, scenario: evil(2), subject: evil(10), message: evil(11), diff: `- golden\n+ rendered\n\n- ${evil(12)}\n+ ${evil(13)}`, hint: evil(14) };
  const accepted: Finding = { ...finding, id: 'acc', provider: 'eks', values: { eks: evil(15), gke: 'b', [provider]: 'b' }, accepted: { reason: evil(16) } };
  return buildReport([provider, 'eks', 'gke'], [evil(2)], [finding, golden, accepted], {
    candidates: [{ facet: evil(17), subject: evil(18), value: evil(19) }],
    notes: [evil(20)],
    timelines: { [provider]: { [evil(2)]: { converged: 1, xrReady: true, resources: [{ key: evil(21), role: evil(22), appears: 0, ready: null }] } } },
  });
}

/** The matrix cell of `provider` on the row of `subject`'s `facet`. */
async function cell(page: Page, subject: string, facet: string, provider: string) {
  const providers = await page.locator('#matrix-table thead th').allTextContents();
  const column = providers.indexOf(provider);
  expect(column, `${provider} among the matrix's columns ${providers.join(', ')}`).toBeGreaterThan(0);
  return page.locator(`#matrix-table tbody[data-subject="${subject}"] tr[data-facet="${facet}"] > :nth-child(${column + 1})`);
}

describe('the seeded set', () => {
  it('marks the seeded cell divergent for the provider that really differs, with a symbol and a word', async () => {
    const { page } = mutated;
    const seededCell = await cell(page, 'node-pool', 'gated-on', SEED.provider);
    await expect.poll(() => seededCell.getAttribute('class')).toBe('k-divergent');
    // The symbol its class draws before it, and its word (read by a screen reader, shown on focus).
    expect(await seededCell.evaluate((element) => getComputedStyle(element, '::before').content)).toMatch(/^"✗"/);
    expect(await seededCell.locator('i').textContent()).toBe('divergent');
    for (const other of ['eks', 'gke', 'nebius', 'vultr']) expect(await (await cell(page, 'node-pool', 'gated-on', other)).getAttribute('class'), other).toBe('k-convention');
  });

  it('links the cell to the seeded file and line at the pull request head on GitHub', async () => {
    const line = seededComposer.split('\n').findIndex((text) => text.includes(SEED.composer[0]!.replace.trim())) + 1;
    expect(line).toBeGreaterThan(0);
    const link = (await cell(mutated.page, 'node-pool', 'gated-on', SEED.provider)).locator('a');
    expect(await link.getAttribute('href')).toBe(`https://github.example/modelplane/drift/blob/${SHA}/providers/${SEED.provider}/function/composer.py#L${line}`);
    expect(await link.innerText()).toBe(`composer.py:${line}`);
  });

  it('shows the focused cell in full: its value, state and place', async () => {
    const { page } = mutated;
    await (await cell(page, 'node-pool', 'gated-on', SEED.provider)).click();
    const detail = page.locator('#detail');
    await expect.poll(() => detail.innerText()).toContain('divergent');
    const text = await detail.innerText();
    expect(text).toContain('[cluster.ready, credentials]');
    expect(text).toContain(`providers/${SEED.provider}/function/composer.py:`);
    expect(await detail.locator('a').getAttribute('href')).toMatch(/^https:\/\/github\.example\/.*#L\d+$/);
  });

  it("the provider's section lists the finding with its place and fix, and its golden diff side by side", async () => {
    const section = mutated.page.locator(`section#p-${SEED.provider}`);
    expect(await section.locator('.findings').innerText()).toContain('node-pool gated-on differs from the convention');
    expect(await section.locator('table.diff').count()).toBeGreaterThan(0);
    expect(await section.locator('table.diff tr.changed, table.diff tr.added').count()).toBeGreaterThan(0);
  });
});

describe('the bundled set', () => {
  it('shows every provider as a column, a timeline per provider, and accepted cells with their reasons', async () => {
    const { page } = bundled;
    expect(await page.locator('#matrix-table thead th').allTextContents()).toEqual(['subject · facet', ...bundledProviders()]);
    expect(await page.locator('section.provider').count()).toBe(bundledProviders().length);
    expect(await page.locator('section#p-gke table.grid').last().locator('tbody tr').count()).toBeGreaterThan(5);
    const accepted = await cell(page, 'cache-storage-class', 'appears', 'vultr');
    expect(await accepted.getAttribute('class')).toBe('k-accepted');
    await accepted.hover();
    await expect.poll(() => page.locator('#detail').innerText()).toContain('accepted because');
  });

  it('the filters hide and show rows by class', async () => {
    const { page } = bundled;
    const rows = (cls: string) => page.locator(`#matrix-table tr[data-class="${cls}"]:visible`).count();
    const behavioral = await rows('behavioral');
    const stylistic = await rows('stylistic');
    expect(behavioral).toBeGreaterThan(0);
    expect(stylistic).toBeGreaterThan(0);
    await page.getByRole('checkbox', { name: /behavioral/ }).click();
    expect(await rows('behavioral')).toBe(0);
    expect(await rows('stylistic')).toBe(stylistic);
    await page.getByRole('checkbox', { name: /stylistic/ }).click();
    expect(await page.locator('#matrix-table tbody:visible').count()).toBe(0);
    await page.getByRole('checkbox', { name: /behavioral/ }).click();
    await page.getByRole('checkbox', { name: /stylistic/ }).click();
    expect(await rows('behavioral')).toBe(behavioral);
    expect(await rows('stylistic')).toBe(stylistic);
  });

  it('the keyboard reaches every cell: Tab into the matrix, then the arrow keys', async () => {
    const { page } = bundled;
    await page.evaluate(() => {
      const seen = new Set<string>();
      (window as unknown as { seen: Set<string> }).seen = seen;
      document.addEventListener('focusin', (event) => {
        const target = event.target as HTMLElement;
        if (target.tagName === 'TD') seen.add(`${(target.parentElement as HTMLTableRowElement).rowIndex}:${(target as HTMLTableCellElement).cellIndex}`);
      });
      (document.activeElement as HTMLElement | null)?.blur();
    });
    let tabs = 0;
    while ((await page.evaluate(() => document.activeElement?.tagName)) !== 'TD') {
      await page.keyboard.press('Tab');
      tabs += 1;
      expect(tabs, 'Tab reaches the matrix').toBeLessThan(40);
    }
    // From the first cell, wherever the matrix's one tab stop was left.
    await page.keyboard.press('Control+Home');
    const rows = await page.locator('#matrix-table tbody tr[data-class]').count();
    const columns = (await page.locator('#matrix-table thead th').count()) - 1;
    for (let row = 0; row < rows; row += 1) {
      for (let step = 1; step < columns; step += 1) await page.keyboard.press(row % 2 === 0 ? 'ArrowRight' : 'ArrowLeft');
      if (row + 1 < rows) await page.keyboard.press('ArrowDown');
    }
    const seen = await page.evaluate(() => (window as unknown as { seen: Set<string> }).seen.size);
    expect(seen).toBe(rows * columns);
    expect(await page.locator('#matrix-table td').count()).toBe(rows * columns);
  });
});

describe("a hostile report's page", () => {
  it('shows its strings as text: nothing in them runs, loads or becomes markup', async () => {
    const { page } = hostile;
    await page.bringToFront();
    await page.locator('#matrix-table td').first().focus();
    // A long name in a row's header never covers the cells beside it.
    await page.locator('#matrix-table td').nth(1).hover();
    expect(dialogs).toBe(0);
    expect(await page.locator('script').count()).toBe(1);
    expect(await page.locator('img, svg, iframe').count()).toBe(0);
    expect(await page.locator('a[href^="javascript"]').count()).toBe(0);
    expect(await page.locator('#matrix-table thead th').nth(1).innerText()).toBe('p"><svg onload=alert(0)>');
    expect(await page.locator('#detail').innerText()).toContain('<script>alert(');
  });
});

describe('every page', () => {
  it('logs no console error and makes no request but its own document', () => {
    for (const opened of [bundled, mutated, hostile]) {
      expect(opened.errors).toEqual([]);
      expect(opened.requests).toEqual([opened.url]);
    }
  });
});
