/**
 * Which account a token writes as, so drift touches only comments that account wrote. A person's
 * token answers `GET /user`. The Actions GITHUB_TOKEN and other app installation tokens get 403
 * ("Resource not accessible by integration") there, but GraphQL's `viewer` names their bot.
 */
import { DriftError } from '../errors.js';
import { type Octokit, failedRequest, requestWords } from './api.js';

/** Who comments with the Actions GITHUB_TOKEN. */
export const ACTIONS_BOT = 'github-actions[bot]';

export interface IdentityOptions {
  /** --author: the login to trust, without asking GitHub. */
  author?: string | undefined;
  /** Running inside GitHub Actions (GITHUB_ACTIONS=true): the fallback is the Actions bot. */
  inActions: boolean;
}

const statusOf = (error: unknown) => (typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined);

export async function tokenLogin(octokit: Octokit, options: IdentityOptions, baseUrl = octokit.request.endpoint.DEFAULTS.baseUrl): Promise<string> {
  if (options.author) return options.author;
  const refused: string[] = [];
  const refusal = (error: unknown) => {
    const failed = failedRequest(error, baseUrl);
    return `${requestWords(failed)}${failed.said ? ` (GitHub said: ${failed.said})` : ''}`;
  };
  try {
    const { data } = await octokit.request('GET /user');
    if (data.login) return data.login;
    refused.push('GET /user named no login');
  } catch (error) {
    // Only an integration's 403 means "ask another way"; a 401 (bad token) or no network is explained as such.
    if (statusOf(error) !== 403) throw error;
    refused.push(refusal(error));
  }
  try {
    const answer = await octokit.graphql<{ viewer?: { login?: unknown } }>('query { viewer { login } }');
    if (typeof answer.viewer?.login === 'string' && answer.viewer.login) return answer.viewer.login;
    refused.push('POST /graphql (viewer) named no login');
  } catch (error) {
    if (statusOf(error) === 401) throw error;
    // Some installation tokens may not query GraphQL: fall back below.
    refused.push(statusOf(error) === undefined ? `POST /graphql (viewer) failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` : refusal(error));
  }
  if (options.inActions) return ACTIONS_BOT;
  throw new DriftError(`cannot tell which account the token belongs to (${refused.join("; ")}): pass --author LOGIN, the login the comments are written as`);
}

/**
 * Whether `login` wrote a comment. Logins compare case-insensitively; GraphQL may name an app's bot
 * without the `[bot]` that REST puts after a Bot's login.
 */
export function writtenBy(user: { login?: string; type?: string } | null | undefined, login: string): boolean {
  const author = user?.login?.toLowerCase();
  if (!author) return false;
  const wanted = login.toLowerCase();
  return author === wanted || (user?.type === 'Bot' && author === `${wanted}[bot]`);
}
