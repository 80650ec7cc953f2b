import type { Invocation } from './io.js';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { DriftError } from '../errors.js';
import type { Report } from '../report/model.js';
import { DEFAULT_REPORT_ID, markerFor, renderMarkdown } from '../report/markdown.js';
import { escapeTerminal } from '../util/terminal.js';

interface CommentOptions {
  repo: string;
  pr: string;
  report: string;
  author?: string;
  id: string;
  runUrl?: string;
  pageUrl?: string;
}

const REPO = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/;
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$/;
// A link drift writes itself: nothing in it may end the Markdown link or start another.
const RUN_URL = /^https:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?\/[A-Za-z0-9._~/%-]*$/;

/** Hides the token should anything ever echo it. */
function redact(text: string, token: string): string {
  return token.length >= 4 ? text.split(token).join('***') : text;
}

/**
 * Where the comment's verdict comes from. The report was written by the pull request's own run, so
 * a pull request can make it say anything: the comment is a view, the run's status check the gate.
 */
export function provenance(runUrl: string | undefined): string {
  const run = runUrl ? `[the pull request's own drift run](${runUrl})` : "the pull request's own drift run";
  return `<sub>Rendered by drift from the default branch, from the report of ${run}. That run's status check, not this comment, is what merging should depend on.</sub>`;
}

/** The report file, size-capped before it is read: whoever wrote it is not trusted. */
export async function readReportArtifact(given: string, cwd: string): Promise<Report> {
  const file = path.resolve(cwd, given);
  let size: number;
  try {
    size = statSync(file).size;
  } catch (error) {
    throw new DriftError(`cannot read the report ${given}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}. Write it with \`drift diff --format json --output ${given}\`.`);
  }
  // Checking a report compiles its schema: loaded only by the command that reads one.
  const { oversizedReport, parseReportArtifact } = await import('../report/artifact.js');
  const oversized = oversizedReport(given, size);
  if (oversized) throw oversized;
  return parseReportArtifact(given, readFileSync(file, 'utf8'));
}

export function registerComment(program: Command, cli: Invocation): void {
  program
    .command('comment')
    .description("render a JSON report (drift diff --format json) as one pull-request comment, updating drift's earlier comment in place")
    .requiredOption('--repo <owner/name>', 'the repository, e.g. $GITHUB_REPOSITORY')
    .requiredOption('--pr <number>', 'the pull request number')
    .option('--report <file>', 'the JSON report to render and post', 'drift-report.json')
    .option('--author <login>', "the login drift's comments are written as (default: asked of GitHub; github-actions[bot] inside Actions when GitHub will not say)")
    .option('--id <id>', 'names the sticky comment: reports with different ids get different comments', DEFAULT_REPORT_ID)
    .option('--run-url <url>', 'the https URL of the run that wrote the report, linked from the comment')
    .option('--page-url <url>', 'the https URL of the conformance page (drift report --format html), linked from the comment')
    .addHelpText(
      'after',
      '\nEnvironment:\n  GITHUB_TOKEN     a token that may write pull-request comments (required; never printed)\n  GITHUB_API_URL   the API to talk to (default https://api.github.com; https, or http on loopback only)',
    )
    .action(async (options: CommentOptions) => {
      const repo = REPO.exec(options.repo);
      if (!repo) throw new DriftError(`--repo must be OWNER/NAME, got ${JSON.stringify(options.repo)}`);
      if (!/^[1-9][0-9]{0,9}$/.test(options.pr)) throw new DriftError(`--pr must be a pull request number, got ${JSON.stringify(options.pr)}`);
      if (options.author !== undefined && !LOGIN.test(options.author)) throw new DriftError(`--author must be a GitHub login (an app's bot ends in [bot]), got ${JSON.stringify(options.author)}`);
      if (options.runUrl !== undefined && !RUN_URL.test(options.runUrl)) throw new DriftError(`--run-url must be a plain https URL, got ${JSON.stringify(options.runUrl)}`);
      if (options.pageUrl !== undefined && !RUN_URL.test(options.pageUrl)) throw new DriftError(`--page-url must be a plain https URL, got ${JSON.stringify(options.pageUrl)}`);
      let marker: string;
      try {
        marker = markerFor(options.id);
      } catch (error) {
        throw new DriftError(`--id: ${(error as Error).message}`);
      }
      const [, owner, name] = repo as unknown as [string, string, string];
      const issueNumber = Number(options.pr);

      // The report is data, never text to post: drift renders it, so every string in it is escaped.
      const report = await readReportArtifact(options.report, cli.io.cwd);
      const page = options.pageUrl ? `**[The conformance page](${options.pageUrl})**: every provider × facet, with places linked. ` : '';
      // Control characters a function printed (C1 included, which markdown does not escape) are shown as escapes in the comment too.
      const body = escapeTerminal(renderMarkdown(report, { id: options.id, note: `${page}${provenance(options.runUrl)}` }));

      const token = cli.io.env.GITHUB_TOKEN ?? '';
      if (!token.trim()) throw new DriftError('GITHUB_TOKEN is not set: drift comment needs a token that may write pull-request comments (in a workflow: `env: GITHUB_TOKEN: ${{ github.token }}` with `permissions: pull-requests: write`).');
      // Octokit is loaded only by the command that talks to GitHub.
      const { apiUrl, DEFAULT_API_URL } = await import('../github/api.js');
      const { explainGitHubError, upsertStickyComment } = await import('../github/sticky.js');
      const baseUrl = cli.io.env.GITHUB_API_URL || DEFAULT_API_URL;
      apiUrl(baseUrl); // refused before anything is sent

      const target = { owner, repo: name, issueNumber, baseUrl };
      try {
        const result = await upsertStickyComment({
          token: token.trim(),
          baseUrl,
          owner,
          repo: name,
          issueNumber,
          body,
          marker,
          author: options.author,
          inActions: cli.io.env.GITHUB_ACTIONS === 'true',
        });
        cli.io.stdout.write(`drift: ${result.action} comment ${result.id} on ${owner}/${name}#${issueNumber} (as ${result.author}): ${result.url}\n`);
      } catch (error) {
        const explained = error instanceof DriftError ? error : explainGitHubError(error, target);
        throw new DriftError(redact(explained.message, token.trim()));
      }
    });
}
