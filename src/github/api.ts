/**
 * The one way drift talks to GitHub: an Octokit whose token goes only to the origin of
 * GITHUB_API_URL. Octokit follows `Link: next` URLs as the server wrote them; a URL on another
 * origin is refused before anything (the token least of all) is sent there.
 * Octokit's core with its paginator only: drift calls four endpoints by route, and @octokit/rest's
 * generated table of every endpoint's method was the bundle's largest module after web-tree-sitter.
 */
import { Octokit as Core } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
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

const Octokit = Core.plugin(paginateRest);
export type Octokit = InstanceType<typeof Octokit>;

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

/**
 * The fine-grained permission each endpoint drift calls needs, for when GitHub's answer does not say
 * (its X-Accepted-GitHub-Permissions header): a fine-grained or app token needs one of them.
 */
const PERMISSIONS: ReadonlyArray<{ method: string; path: RegExp; permission: string }> = [
  { method: 'GET', path: /^\/user$/, permission: "none an app or Actions token can hold: only a person's token reads GET /user" },
  { method: 'POST', path: /^\/graphql$/, permission: 'none beyond a valid token (the viewer query)' },
  { method: 'GET', path: /^\/repos\/[^/]+\/[^/]+\/issues\/\d+\/comments$/, permission: 'pull_requests=read or issues=read' },
  { method: 'POST', path: /^\/repos\/[^/]+\/[^/]+\/issues\/\d+\/comments$/, permission: 'pull_requests=write or issues=write' },
  { method: 'PATCH', path: /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/\d+$/, permission: 'pull_requests=write or issues=write' },
];

/** What a failed GitHub request was: its status, endpoint, GitHub's message and the permission it needs. */
export interface FailedRequest {
  status: number | undefined;
  /** `POST /repos/acme/widgets/issues/7/comments`, the path relative to GITHUB_API_URL. */
  endpoint: string | undefined;
  /** The permission GitHub asks for (its header), else drift's own table's. */
  permission: string | undefined;
  /** GitHub's own message. */
  said: string | undefined;
}

export function failedRequest(error: unknown, base: string): FailedRequest {
  const e = (typeof error === 'object' && error !== null ? error : {}) as {
    status?: unknown;
    message?: unknown;
    request?: { method?: unknown; url?: unknown };
    response?: { headers?: Record<string, unknown> };
  };
  const status = typeof e.status === 'number' ? e.status : undefined;
  const method = typeof e.request?.method === 'string' ? e.request.method.toUpperCase() : undefined;
  let endpoint: string | undefined;
  let path: string | undefined;
  if (method && typeof e.request?.url === 'string') {
    try {
      const url = new URL(e.request.url);
      const prefix = new URL(base).pathname.replace(/\/+$/, '');
      path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) || '/' : url.pathname;
      endpoint = `${method} ${path}`;
    } catch {
      // not a URL: say nothing of the endpoint
    }
  }
  const header = e.response?.headers?.['x-accepted-github-permissions'];
  const known = PERMISSIONS.find((entry) => entry.method === method && path !== undefined && entry.path.test(path))?.permission;
  const permission = typeof header === 'string' && header.trim() ? header.trim() : known;
  const said = typeof e.message === 'string' && e.message ? e.message : undefined;
  return { status, endpoint, permission, said };
}

/** `POST /repos/acme/widgets/issues/7/comments answered 403; GitHub asks for pull_requests=write`, for any message. */
export function requestWords(failed: FailedRequest): string {
  const answered = failed.endpoint ? `${failed.endpoint} answered ${failed.status ?? 'nothing'}` : `GitHub answered ${failed.status ?? 'nothing'}`;
  return failed.permission ? `${answered}; the permission it needs: ${failed.permission}` : answered;
}
