/**
 * One sticky pull-request comment, found again by drift's hidden marker and updated in place. Only
 * a comment the token's own account wrote counts as drift's: a person's comment that starts with the
 * marker is left alone, whatever it says, and drift writes its own next to it.
 */
import { DriftError } from '../errors.js';
import { GITHUB_COMMENT_LIMIT } from '../report/markdown.js';
import { apiUrl, failedRequest, ForeignOriginError, githubClient, requestWords } from './api.js';
import { tokenLogin, writtenBy } from './identity.js';

export interface StickyComment {
  token: string;
  /** GITHUB_API_URL: https://api.github.com, or a GitHub Enterprise Server's /api/v3. */
  baseUrl: string;
  owner: string;
  repo: string;
  /** The pull request's number (pull requests are issues to the comments API). */
  issueNumber: number;
  /** The comment's text: starts with `marker`. */
  body: string;
  /** The marker line that identifies drift's comment, `<!-- drift-report: <id> -->`. */
  marker: string;
  /** The login drift's comments are written as; asked of GitHub when absent. */
  author?: string | undefined;
  /** Inside GitHub Actions: the Actions bot is the fallback identity. */
  inActions?: boolean;
  userAgent?: string;
}

export interface StickyResult {
  action: 'created' | 'updated' | 'unchanged';
  id: number;
  url: string;
  /** Whose comments drift took as its own. */
  author: string;
}

interface IssueComment {
  id: number;
  body?: string | null;
  html_url: string;
  user?: { login?: string; type?: string } | null;
}

/** Whether a comment is one drift wrote with this marker: the marker is its first line. */
export function carriesMarker(body: string | null | undefined, marker: string): boolean {
  if (!body) return false;
  const text = body.replace(/^\uFEFF/, '').trimStart();
  return text.startsWith(marker) && /^(\r?\n|$)/.test(text.slice(marker.length).replace(/^[ \t]+/, ''));
}

/**
 * Creates or updates the comment on `owner/repo#issueNumber` that the token's account wrote and that
 * starts with `marker`. Reads every page of the pull request's comments; when several qualify, the
 * oldest wins. Leaves an identical comment alone.
 */
export async function upsertStickyComment(options: StickyComment): Promise<StickyResult> {
  if (options.body.length > GITHUB_COMMENT_LIMIT) {
    throw new DriftError(`the comment has ${options.body.length} characters, more than GitHub's ${GITHUB_COMMENT_LIMIT}`);
  }
  const octokit = githubClient(options.token, apiUrl(options.baseUrl), options.userAgent);
  const author = await tokenLogin(octokit, { author: options.author, inActions: options.inActions ?? false });
  const where = { owner: options.owner, repo: options.repo, issue_number: options.issueNumber };
  let found: IssueComment | undefined;
  for await (const page of octokit.paginate.iterator('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...where, per_page: 100 })) {
    for (const comment of page.data as IssueComment[]) {
      if (!found && carriesMarker(comment.body, options.marker) && writtenBy(comment.user, author)) found = comment;
    }
  }
  if (found) {
    if (found.body === options.body) return { action: 'unchanged', id: found.id, url: found.html_url, author };
    const { data } = await octokit.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { owner: options.owner, repo: options.repo, comment_id: found.id, body: options.body });
    return { action: 'updated', id: commentId(data.id), url: data.html_url, author };
  }
  const { data } = await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...where, body: options.body });
  return { action: 'created', id: commentId(data.id), url: data.html_url, author };
}

/** GitHub's types allow an int64 id as bigint; an answer parsed from JSON always carries a number. */
const commentId = (id: number | bigint): number => Number(id);

interface RequestErrorLike {
  status?: unknown;
  message?: unknown;
  response?: unknown;
  cause?: unknown;
}

/** The innermost cause's message: `connect ECONNREFUSED 127.0.0.1:1` rather than `fetch failed`. */
function deepestMessage(error: unknown): string {
  const messages: string[] = [];
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 5; depth += 1) {
    if (current instanceof Error) messages.push(current.message);
    else messages.push(String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return messages.filter(Boolean).at(-1) ?? 'unknown error';
}

/** Turns what Octokit throws into a DriftError that says what to check. Never includes the token. */
export function explainGitHubError(error: unknown, target: { owner: string; repo: string; issueNumber: number; baseUrl: string }): DriftError {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth += 1) {
    if (cause instanceof ForeignOriginError) return cause;
  }
  const e = (typeof error === 'object' && error !== null ? error : {}) as RequestErrorLike;
  const pr = `${target.owner}/${target.repo}#${target.issueNumber}`;
  const said = typeof e.message === 'string' && e.message ? ` (GitHub said: ${e.message})` : '';
  const status = typeof e.status === 'number' ? e.status : undefined;
  if (status === undefined || e.response === undefined) {
    const cause = deepestMessage(error);
    return new DriftError(`could not reach the GitHub API at ${target.baseUrl}: ${cause}. Check GITHUB_API_URL and the network.`);
  }
  // Every explanation ends with what failed: the status, the endpoint, the permission it needs.
  const explained = explainStatus(status, pr, target, said);
  return new DriftError(`${explained.message} [${requestWords(failedRequest(error, target.baseUrl))}]`);
}

function explainStatus(status: number, pr: string, target: { owner: string; repo: string }, said: string): DriftError {
  switch (status) {
    case 401:
      return new DriftError(`GitHub rejected the token (401)${said}: check that GITHUB_TOKEN holds a valid, unexpired token.`);
    case 403:
      return new DriftError(
        `GitHub refused to let this token comment on ${pr} (403)${said}: the token needs permission to write pull-request comments — in a workflow, give the job \`permissions: pull-requests: write\` (a personal token needs the repo scope, or Pull requests: write); workflows triggered by pull requests from forks get a read-only token, so post from a workflow_run job.`,
      );
    case 404:
      return new DriftError(`GitHub found no pull request ${pr} (404)${said}: check --repo OWNER/NAME and --pr NUMBER, and that the token can see the repository (a token without access to a private repository gets 404).`);
    case 410:
      return new DriftError(`issues are disabled on ${target.owner}/${target.repo} (410)${said}: pull-request comments need them.`);
    case 422:
      return new DriftError(`GitHub did not accept the comment on ${pr} (422)${said}.`);
    default:
      return new DriftError(`GitHub answered ${status} for ${pr}${said}.`);
  }
}
