import type { Adapter } from '../config/types.js';
import type { Environment } from '../util/envVars.js';

/**
 * The environment a provider's function starts with, and the one the answer cache keys on: what a
 * Python function needs to run (the interpreter's PATH, HOME, the locale, the temporary folder), the
 * Python function SDK's own settings (crossplane.function.cli reads them), the names the adapter
 * passes through (`function.passEnv`), then the values it sets (`function.env`). Nothing else of
 * drift's environment reaches a function: a token drift holds (GITHUB_TOKEN) is not the function's
 * to print.
 */

/** Always handed on when drift has them. */
const BASE = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'LANGUAGE'];
/**
 * Test-only: drift's process tests tag the functions they start (test/helpers/processes.ts finds a
 * survivor by the tag in its environment); unset outside them.
 */
const TEST_TAG = 'DRIFT_TEST_TAG';
/** The locale's categories (LC_ALL, LC_CTYPE, ...). */
const LOCALE = /^LC_[A-Z_]+$/;
/** What the Python SDK's server reads from its environment (crossplane/function/cli.py, 0.15). */
const SDK = ['ADDRESS', 'CACHE_SIZE', 'DEBUG', 'INSECURE', 'MAX_GRPC_MESSAGE_SIZE', 'MAX_RECV_MESSAGE_SIZE', 'MAX_SEND_MESSAGE_SIZE', 'TLS_SERVER_CERTS_DIR'];

/** The function's environment, in a fixed key order (sorted), so the same inputs give the same key. */
export function functionEnv(adapter: Pick<Adapter, 'function'>, env: Environment): Record<string, string> {
  const passed = new Set([...BASE, ...SDK, TEST_TAG, ...(adapter.function.passEnv ?? [])]);
  const chosen: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && (passed.has(name) || LOCALE.test(name))) chosen[name] = value;
  }
  // Output reaches drift as it is printed, so a crash's last lines are never lost in a buffer.
  Object.assign(chosen, adapter.function.env, { PYTHONUNBUFFERED: '1' });
  return Object.fromEntries(Object.entries(chosen).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
