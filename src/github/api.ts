/**
 * The one way drift talks to GitHub: an Octokit whose token goes only to the origin of
 * GITHUB_API_URL. Octokit follows `Link: next` URLs as the server wrote them; a URL on another
 * origin is refused before anything (the token least of all) is sent there.
 */
import { Octokit } from '@octokit/rest';
import { DriftError } from '../errors.js';

export const DEFAULT_API_URL = 'https://api.github.com';
const TIMEOUT_MS = 60_000;

/** Raised instead of sending a request to an origin other than GITHUB_API_URL's. */
export class ForeignOriginError extends DriftError {
  override name = 'ForeignOriginError';
}

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * GITHUB_API_URL as a URL: https, or plain http only on loopback (a local test server), so the
 * token never crosses a network in the clear.
 */
export function apiUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new DriftError(`GITHUB_API_URL must be a URL such as ${DEFAULT_API_URL}, got ${JSON.stringify(value)}`);
  }
  if (url.username || url.password || url.search || url.hash) throw new DriftError(`GITHUB_API_URL must be a plain API URL without credentials, query or fragment, got ${JSON.stringify(value)}`);
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.test(url.hostname)) return url;
  throw new DriftError(`GITHUB_API_URL must be https (plain http only on loopback, for a local server), got ${JSON.stringify(value)}: drift sends the token there`);
}

export function githubClient(token: string, base: URL, userAgent = 'drift'): Octokit {
  const origin = base.origin;
  const guarded = (url: string | URL, init: RequestInit) => {
    const target = new URL(String(url));
    if (target.origin !== origin) {
      return Promise.reject(new ForeignOriginError(`GitHub's answer pointed drift at ${target.origin}, not at GITHUB_API_URL's ${origin}: refused, the token is sent only to ${origin}`));
    }
    // A redirect elsewhere is refused too: the Authorization header would go with it.
    return fetch(target, { ...init, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
  };
  return new Octokit({
    auth: token,
    baseUrl: base.href.replace(/\/+$/, ''),
    userAgent,
    // Errors are explained by explainGitHubError; only deprecation warnings are worth printing.
    log: { debug: () => {}, info: () => {}, warn: (message: string) => process.stderr.write(`drift: ${message}\n`), error: () => {} },
    request: { fetch: guarded },
  });
}
