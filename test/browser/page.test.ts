/**
 * The conformance page in a real browser (the machine's Chromium through playwright-core): the
 * bundled set's page and a seeded set's, each rendered once by the built CLI and opened once, then
 * asserted as a person sees them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDrift } from '../helpers/drift.js';
import { SEEDS, seeded } from '../helpers/mutationSeeds.js';
import { REPO, tempDir } from '../helpers/project.js';
import { launchChromium, openPage, type OpenedPage } from './chromium.js';

const SEED = SEEDS.find((seed) => seed.expected.includes('div:node-pool:gated-on:aks'))!;
const SHA = '0123456789abcdef0123456789abcdef01234567';
const GITHUB = { GITHUB_SERVER_URL: 'https://github.example', GITHUB_REPOSITORY: 'modelplane/drift' };

let browser: Browser;
let bundled: OpenedPage;
let mutated: OpenedPage;
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
  const [clean, dirty, started] = await Promise.all([
    runDrift(['diff', '--format', 'html', '-o', bundledFile], REPO),
    runDrift(['diff', ...SEED.scenarios.flatMap((scenario) => ['-s', scenario]), '--format', 'html', '-o', seededFile, '--github-sha', SHA], copy.dir, GITHUB),
    launchChromium(),
  ]);
  browser = started;
  expect(clean.exitCode, clean.all).toBe(0);
  expect(dirty.exitCode, dirty.all).toBe(1);
  [bundled, mutated] = await Promise.all([openPage(browser, bundledFile), openPage(browser, seededFile)]);
});

afterAll(async () => {
  await browser?.close();
  for (const cleanup of cleanups) cleanup();
});

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
    expect(await page.locator('#matrix-table thead th').allTextContents()).toEqual(['subject · facet', 'aks', 'eks', 'gke', 'nebius', 'vultr']);
    expect(await page.locator('section.provider').count()).toBe(5);
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

describe('both pages', () => {
  it('log no console error and make no request but their own document', () => {
    for (const opened of [bundled, mutated]) {
      expect(opened.errors).toEqual([]);
      expect(opened.requests).toEqual([opened.url]);
    }
  });
});
