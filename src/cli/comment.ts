import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { DriftError } from '../errors.js';
import { readMarker } from '../report/markdown.js';

interface CommentOptions {
  repo: string;
  pr: string;
  report: string;
}

const REPO = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/;

/** Hides the token should anything ever echo it. */
function redact(text: string, token: string): string {
  return token.length >= 4 ? text.split(token).join('***') : text;
}

export function registerComment(program: Command): void {
  program
    .command('comment')
    .description("post the markdown report (drift diff --format markdown) as one pull-request comment, updating drift's earlier comment in place")
    .requiredOption('--repo <owner/name>', 'the repository, e.g. $GITHUB_REPOSITORY')
    .requiredOption('--pr <number>', 'the pull request number')
    .option('--report <file>', 'the markdown report to post', 'drift-report.md')
    .addHelpText('after', '\nEnvironment:\n  GITHUB_TOKEN     a token that may write pull-request comments (required; never printed)\n  GITHUB_API_URL   the API to talk to (default https://api.github.com)')
    .action(async (options: CommentOptions) => {
      const repo = REPO.exec(options.repo);
      if (!repo) throw new DriftError(`--repo must be OWNER/NAME, got ${JSON.stringify(options.repo)}`);
      if (!/^[1-9][0-9]{0,9}$/.test(options.pr)) throw new DriftError(`--pr must be a pull request number, got ${JSON.stringify(options.pr)}`);
      const [, owner, name] = repo as unknown as [string, string, string];
      const issueNumber = Number(options.pr);

      let body: string;
      try {
        body = readFileSync(options.report, 'utf8');
      } catch (error) {
        throw new DriftError(`cannot read the report ${options.report}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}. Write it with \`drift diff --format markdown --output ${options.report}\`.`);
      }
      const marker = readMarker(body);
      if (!marker) throw new DriftError(`${options.report} is not a drift markdown report: its first line is not drift's marker <!-- drift-report: ID -->. Write it with \`drift diff --format markdown\`.`);

      const token = process.env.GITHUB_TOKEN ?? '';
      if (!token.trim()) throw new DriftError('GITHUB_TOKEN is not set: drift comment needs a token that may write pull-request comments (in a workflow: `env: GITHUB_TOKEN: ${{ github.token }}` with `permissions: pull-requests: write`).');
      // Octokit is loaded only by the command that talks to GitHub.
      const { DEFAULT_API_URL, explainGitHubError, upsertStickyComment } = await import('../github/comment.js');
      const baseUrl = process.env.GITHUB_API_URL || DEFAULT_API_URL;
      if (!/^https?:\/\/[^\s]+$/.test(baseUrl)) throw new DriftError(`GITHUB_API_URL must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);

      const target = { owner, repo: name, issueNumber, baseUrl };
      try {
        const result = await upsertStickyComment({ token: token.trim(), baseUrl, owner, repo: name, issueNumber, body, marker });
        process.stdout.write(`drift: ${result.action} comment ${result.id} on ${owner}/${name}#${issueNumber}: ${result.url}\n`);
      } catch (error) {
        const explained = error instanceof DriftError ? error : explainGitHubError(error, target);
        throw new DriftError(redact(explained.message, token.trim()));
      }
    });
}
