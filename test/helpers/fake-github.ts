/**
 * A local stand-in for GitHub's issue-comment endpoints, enough for Octokit:
 *   GET   /repos/:owner/:repo/issues/:number/comments   (page/per_page, Link headers)
 *   POST  /repos/:owner/:repo/issues/:number/comments
 *   PATCH /repos/:owner/:repo/issues/comments/:id
 *   GET   /user      a person's token answers with its login; an integration's (Actions, an app) gets 403
 *   POST  /graphql   `viewer { login }`, which also answers for an integration's token
 * node:http on 127.0.0.1 with a random port; records every request; can be told to fail.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeComment {
  id: number;
  body: string;
  user: { login: string; type: 'User' | 'Bot' };
  /** Which pull request ("owner/repo#n") it is on. */
  on: string;
}

export interface RecordedRequest {
  method: string;
  /** Path and query, as received. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeGitHubOptions {
  /** The largest page the server hands out, whatever per_page asks (GitHub's is 100). */
  maxPerPage?: number;
  /** Pull requests that exist, as "owner/repo#n"; others answer 404. Default: any. */
  pulls?: string[];
  /**
   * Whose token it is: a person (GET /user answers, comments are the User's) or an integration such
   * as the Actions GITHUB_TOKEN (GET /user answers 403, GraphQL's viewer names the bot, comments are
   * the Bot's). Default: the integration github-actions[bot].
   */
  token?: { kind: 'person' | 'integration'; login: string; graphql?: boolean };
  /** Where `Link` headers point, instead of this server: another origin, to see whether drift follows. */
  linkBase?: string;
}

export interface FakeGitHub {
  /** http://127.0.0.1:PORT: what GITHUB_API_URL should be. */
  url: string;
  requests: RecordedRequest[];
  comments: FakeComment[];
  /** Answer every request with this status (401, 403, 404, ...) and headers until cleared with undefined. */
  failWith(status: number | undefined, message?: string, headers?: Record<string, string>): void;
  /** Adds a comment as if someone had posted it; returns it. */
  addComment(on: string, body: string, user?: FakeComment['user']): FakeComment;
  /** The comments on one pull request, oldest first. */
  commentsOn(on: string): FakeComment[];
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, data: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(data));
};

export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const maxPerPage = options.maxPerPage ?? 100;
  const token = options.token ?? { kind: 'integration', login: 'github-actions[bot]' };
  const author: FakeComment['user'] = { login: token.login, type: token.kind === 'person' ? 'User' : 'Bot' };
  const requests: RecordedRequest[] = [];
  const comments: FakeComment[] = [];
  let nextId = 1000;
  let failure: { status: number; message: string; headers: Record<string, string> } | undefined;
  let base = '';

  const view = (comment: FakeComment) => {
    const [repo, number] = comment.on.split('#') as [string, string];
    return {
      id: comment.id,
      node_id: `IC_${comment.id}`,
      url: `${base}/repos/${repo}/issues/comments/${comment.id}`,
      html_url: `https://github.example/${repo}/pull/${number}#issuecomment-${comment.id}`,
      issue_url: `${base}/repos/${repo}/issues/${number}`,
      body: comment.body,
      user: { login: comment.user.login, type: comment.user.type, id: 1 },
      created_at: '2025-01-01T00:00:00Z',
      updated_at: '2025-01-01T00:00:00Z',
      author_association: 'NONE',
    };
  };
  const exists = (on: string) => options.pulls === undefined || options.pulls.includes(on);

  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const url = new URL(req.url ?? '/', base);
    requests.push({ method: req.method ?? '', url: `${url.pathname}${url.search}`, headers: req.headers, body });
    if (failure) return json(res, failure.status, { message: failure.message, documentation_url: 'https://docs.github.com/rest' }, failure.headers);
    if (url.pathname === '/user' && req.method === 'GET') {
      if (token.kind === 'integration') return json(res, 403, { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest/users/users#get-the-authenticated-user' });
      return json(res, 200, { login: token.login, id: 1, type: 'User' });
    }
    if (url.pathname === '/graphql' && req.method === 'POST') {
      if (token.graphql === false) return json(res, 403, { message: 'Resource not accessible by integration' });
      const query = String((JSON.parse(body || '{}') as { query?: unknown }).query ?? '');
      if (!/viewer\s*\{\s*login\s*\}/.test(query)) return json(res, 200, { errors: [{ message: 'this fake answers only viewer { login }' }] });
      // GraphQL names an app's bot as REST does, with [bot].
      return json(res, 200, { data: { viewer: { login: token.login } } });
    }
    const list = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(url.pathname);
    const one = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/.exec(url.pathname);
    if (list && req.method === 'GET') {
      const on = `${list[1]}/${list[2]}#${list[3]}`;
      if (!exists(on)) return json(res, 404, { message: 'Not Found' });
      const perPage = Math.min(maxPerPage, Number(url.searchParams.get('per_page') ?? 30) || 30);
      const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
      const all = comments.filter((comment) => comment.on === on);
      const last = Math.max(1, Math.ceil(all.length / perPage));
      const link = (p: number, rel: string) => {
        const next = new URL(url.pathname, options.linkBase ?? base);
        next.searchParams.set('per_page', String(perPage));
        next.searchParams.set('page', String(p));
        return `<${next.href}>; rel="${rel}"`;
      };
      const links: string[] = [];
      if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
      if (page > 1) links.push(link(1, 'first'), link(page - 1, 'prev'));
      return json(res, 200, all.slice((page - 1) * perPage, page * perPage).map(view), links.length ? { link: links.join(', ') } : {});
    }
    if (list && req.method === 'POST') {
      const on = `${list[1]}/${list[2]}#${list[3]}`;
      if (!exists(on)) return json(res, 404, { message: 'Not Found' });
      const text = (JSON.parse(body || '{}') as { body?: unknown }).body;
      if (typeof text !== 'string' || text === '') return json(res, 422, { message: 'Validation Failed' });
      if (text.length > 65_536) return json(res, 422, { message: 'Validation Failed', errors: [{ message: 'body is too long (maximum is 65536 characters)' }] });
      const comment: FakeComment = { id: nextId++, body: text, user: author, on };
      comments.push(comment);
      return json(res, 201, view(comment));
    }
    if (one && req.method === 'PATCH') {
      const comment = comments.find((c) => c.id === Number(one[3]) && c.on.startsWith(`${one[1]}/${one[2]}#`));
      if (!comment) return json(res, 404, { message: 'Not Found' });
      const text = (JSON.parse(body || '{}') as { body?: unknown }).body;
      if (typeof text !== 'string' || text === '') return json(res, 422, { message: 'Validation Failed' });
      if (text.length > 65_536) return json(res, 422, { message: 'Validation Failed', errors: [{ message: 'body is too long (maximum is 65536 characters)' }] });
      comment.body = text;
      return json(res, 200, view(comment));
    }
    return json(res, 404, { message: 'Not Found' });
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        handle(req, res, Buffer.concat(chunks).toString('utf8'));
      } catch (error) {
        json(res, 500, { message: String(error) });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    requests,
    comments,
    failWith(status, message, headers = {}) {
      failure = status === undefined ? undefined : { status, headers, message: message ?? (status === 401 ? 'Bad credentials' : status === 403 ? 'Resource not accessible by integration' : 'Not Found') };
    },
    addComment(on, body, user = { login: 'someone', type: 'User' }) {
      const comment: FakeComment = { id: nextId++, body, user, on };
      comments.push(comment);
      return comment;
    },
    commentsOn(on) {
      return comments.filter((comment) => comment.on === on);
    },
    close() {
      return new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
    },
  };
}
