/**
 * The machine's Chromium (Debian's package, which .ci/run installs) driven by playwright-core, pinned
 * to the release built for that Chromium (1.64.1: Chromium 156). One browser per test file; each
 * page records what a person would not see go wrong: console errors, page errors and every request.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

// @ts-expect-error scripts/ is plain JavaScript without declarations
import { CHROMIUM, CHROMIUM_FLAGS } from '../../scripts/chromium.mjs';

export { CHROMIUM };

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: install Debian's chromium package (.ci/run does: apt-get install -y chromium)`);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS as string[], headless: true });
}

export interface OpenedPage {
  page: Page;
  url: string;
  /** Console messages of type error, and uncaught page errors. */
  errors: string[];
  /** Every request the page made, its own document included. */
  requests: string[];
}

/** Opens a page file the way a person does (file://), listening before it loads. */
export async function openPage(browser: Browser, file: string, viewport = { width: 1400, height: 900 }): Promise<OpenedPage> {
  const page = await browser.newPage({ viewport });
  const url = pathToFileURL(file).href;
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(url, { waitUntil: 'load' });
  return { page, url, errors, requests };
}
