// The machine's Chromium (Debian's package, which .ci/run installs) as the browser tests, the docs
// script's screenshot and the bench's page line launch it, through playwright-core.
import { createRequire } from 'node:module';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * Without the background-networking flags Chromium keeps dialing Google's hosts, which a closed
 * network refuses; playwright-core gives every launch a fresh, empty profile (--user-data-dir) itself.
 */
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Launches it headless; playwright-core is required as CommonJS, whose resolution honours NODE_PATH (an install outside the project). */
export function launchChromium() {
  const { chromium } = createRequire(import.meta.url)('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
}
