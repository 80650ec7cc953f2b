/** `drift comment` end to end: the built binary against a local fake of GitHub's comment endpoints. */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GITHUB_COMMENT_LIMIT, renderMarkdown } from '../../src/report/markdown.js';
import { startFakeGitHub, type FakeGitHub } from '../helpers/fake-github.js';
import { tempDir } from '../helpers/project.js';
import { cleanReport, syntheticReport } from '../helpers/reports.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const DRIFT_BIN = path.join(REPO, 'bin/drift.js');
const TOKEN = 'ghs_SuperSecretTestToken0123456789';
const PR = 'acme/widgets#7';
const MARKER = '<!-- drift-report: drift -->';

let github: FakeGitHub;
let temp: ReturnType<typeof tempDir>;

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist/cli/comment.js'))) throw new Error('build drift first: npx tsc -p .');
});

beforeEach(async () => {
  github = await startFakeGitHub({ pulls: [PR] });
  temp = tempDir('drift-comment-');
});

afterEach(async () => {
  await github.close();
  temp.remove();
});


function writeReport(name: string, text: string): string {
  const file = path.join(temp.dir, name);
  writeFileSync(file, text);
  return file;
}

async function comment(args: string[], env: Record<string, string | undefined> = {}) {
  const result = await execa('node', [DRIFT_BIN, 'comment', ...args], {
    cwd: temp.dir,
    reject: false,
    extendEnv: false,
    env: { PATH: process.env.PATH, GITHUB_API_URL: github.url, GITHUB_TOKEN: TOKEN, ...env },
  });
  expect(`${result.stdout}\n${result.stderr}`).not.toContain(TOKEN);
  expect(`${result.stdout}\n${result.stderr}`).not.toContain('SuperSecret');
  return result;
}

const writes = () => github.requests.filter((request) => request.method !== 'GET');

describe('drift comment', () => {
  it('creates the comment, then updates the same one in place', async () => {
    const first = writeReport('first.md', renderMarkdown(syntheticReport(5)));
    const created = await comment(['--repo', 'acme/widgets', '--pr', '7', '--report', first]);
    expect(created.exitCode, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^drift: created comment 1000 on acme\/widgets#7: https:\/\/\S+issuecomment-1000$/m);
    expect(github.commentsOn(PR)).toHaveLength(1);
    expect(github.commentsOn(PR)[0]!.body.startsWith(MARKER)).toBe(true);
    expect(github.requests[0]!.headers.authorization).toBe(`token ${TOKEN}`);
    expect(writes().map((r) => `${r.method} ${r.url}`)).toEqual(['POST /repos/acme/widgets/issues/7/comments']);

    const second = writeReport('second.md', renderMarkdown(syntheticReport(8)));
    const updated = await comment(['--repo', 'acme/widgets', '--pr', '7', '--report', second]);
    expect(updated.exitCode, updated.stderr).toBe(0);
    expect(updated.stdout).toContain('drift: updated comment 1000 on acme/widgets#7');
    expect(github.commentsOn(PR)).toHaveLength(1);
    expect(github.commentsOn(PR)[0]!.body).toContain('8 findings');
    expect(writes().map((r) => `${r.method} ${r.url}`)).toEqual(['POST /repos/acme/widgets/issues/7/comments', 'PATCH /repos/acme/widgets/issues/comments/1000']);

    // The same report again changes nothing.
    const again = await comment(['--repo', 'acme/widgets', '--pr', '7', '--report', second]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toContain('drift: unchanged comment 1000');
    expect(writes()).toHaveLength(2);
  });

  it('reads drift-report.md by default, and turns a dirty comment clean', async () => {
    writeReport('drift-report.md', renderMarkdown(syntheticReport(4)));
    expect((await comment(['--repo', 'acme/widgets', '--pr', '7'])).exitCode).toBe(0);
    expect(github.commentsOn(PR)[0]!.body).toContain('## ❌ drift: 4 findings');

    writeReport('drift-report.md', renderMarkdown(cleanReport()));
    const result = await comment(['--repo', 'acme/widgets', '--pr', '7']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('updated comment 1000');
    expect(github.commentsOn(PR)).toHaveLength(1);
    expect(github.commentsOn(PR)[0]!.body).toContain('## ✅ drift: clean');
    expect(github.commentsOn(PR)[0]!.body).not.toContain('❌');
  });

  it("leaves other people's comments alone and finds its own on a later page", async () => {
    await github.close();
    github = await startFakeGitHub({ pulls: [PR], maxPerPage: 2 });
    const foreign = [
      github.addComment(PR, 'LGTM'),
      github.addComment(PR, `> ${MARKER}\n> quoting the bot`),
      github.addComment(PR, 'a comment that mentions <!-- drift-report: drift --> in the middle'),
    ];
    const ours = github.addComment(PR, `${MARKER}\n## ❌ drift: 1 finding (1 contract)\n\nold`, { login: 'github-actions[bot]', type: 'Bot' });
    github.addComment(PR, 'a later comment');
    github.addComment('acme/widgets#8', `${MARKER}\nanother pull request's report`, { login: 'github-actions[bot]', type: 'Bot' });
    const before = foreign.map((c) => c.body);

    const result = await comment(['--repo', 'acme/widgets', '--pr', '7', '--report', writeReport('r.md', renderMarkdown(cleanReport()))]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain(`updated comment ${ours.id}`);
    expect(ours.body).toContain('## ✅ drift: clean');
    expect(foreign.map((c) => c.body)).toEqual(before);
    expect(github.comments).toHaveLength(6);
    const pages = github.requests.filter((r) => r.method === 'GET').map((r) => new URL(r.url, github.url).searchParams.get('page') ?? '1');
    expect(pages).toEqual(['1', '2', '3']);
    expect(writes().map((r) => `${r.method} ${r.url}`)).toEqual([`PATCH /repos/acme/widgets/issues/comments/${ours.id}`]);
  });

  it('keeps reports with different ids in different comments', async () => {
    const drift = await comment(['--repo', 'acme/widgets', '--pr', '7', '--report', writeReport('a.md', renderMarkdown(syntheticReport(2)))]);
    const nightly = await comment(['--repo', 'acme/widgets', '--pr', '7', '--report', writeReport('b.md', renderMarkdown(syntheticReport(3), { id: 'nightly' }))]);
    expect([drift.exitCode, nightly.exitCode]).toEqual([0, 0]);
    expect(github.commentsOn(PR).map((c) => c.body.split('\n')[0])).toEqual([MARKER, '<!-- drift-report: nightly -->']);
  });

  it('posts an oversized report within the limit, saying what it dropped', async () => {
    const report = syntheticReport(4000, 100, { diffLines: 20 });
    const unbounded = renderMarkdown(report, { budget: 100_000_000 }).length;
    const text = renderMarkdown(report);
    console.log(`oversized report: ${unbounded} characters unbounded, ${text.length} posted`);
    expect(unbounded).toBeGreaterThan(GITHUB_COMMENT_LIMIT);
    const result = await comment(['--repo', 'acme/widgets', '--pr', '7', '--report', writeReport('big.md', text)]);
    expect(result.exitCode, result.stderr).toBe(0);
    const posted = github.commentsOn(PR)[0]!.body;
    expect(posted).toBe(text);
    expect(posted.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(posted).toContain("dropped to fit GitHub's comment limit; run `drift diff` locally or see the job's artifact");
    expect(posted).toContain("> Shortened to fit GitHub's comment limit: details of");
  });

  it('refuses a report longer than GitHub accepts', async () => {
    const result = await comment(['--repo', 'acme/widgets', '--pr', '7', '--report', writeReport('long.md', `${MARKER}\n${'x'.repeat(GITHUB_COMMENT_LIMIT)}`)]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("more than GitHub's 65536");
    expect(github.requests).toHaveLength(0);
  });

  it.each([
    [401, /GitHub rejected the token \(401\).*check that GITHUB_TOKEN holds a valid, unexpired token/],
    [403, /refused to let this token comment on acme\/widgets#7 \(403\) \(GitHub said: Resource not accessible by integration[^)]*\).*permissions: pull-requests: write/],
    [404, /found no pull request acme\/widgets#7 \(404\).*check --repo OWNER\/NAME and --pr NUMBER/],
  ])('explains a %i and exits 2 without printing the token', async (status, message) => {
    github.failWith(status);
    const result = await comment(['--repo', 'acme/widgets', '--pr', '7', '--report', writeReport('r.md', renderMarkdown(syntheticReport(1)))]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(github.requests.length).toBeGreaterThan(0);
    expect(github.comments).toHaveLength(0);
  });

  it('says which pull request it could not find when the number is wrong', async () => {
    const result = await comment(['--repo', 'acme/widgets', '--pr', '99', '--report', writeReport('r.md', renderMarkdown(syntheticReport(1)))]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('acme/widgets#99 (404)');
  });

  it('rejects a report file without the marker, before talking to GitHub', async () => {
    const result = await comment(['--repo', 'acme/widgets', '--pr', '7', '--report', writeReport('plain.md', '# my notes\n<!-- drift-report: drift -->\n')]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('is not a drift markdown report');
    expect(github.requests).toHaveLength(0);
  });

  it('exits 2 with a clear message when the token or the report is missing, or the arguments are wrong', async () => {
    const report = writeReport('r.md', renderMarkdown(syntheticReport(1)));
    const noToken = await comment(['--repo', 'acme/widgets', '--pr', '7', '--report', report], { GITHUB_TOKEN: undefined });
    expect(noToken.exitCode).toBe(2);
    expect(noToken.stderr).toContain('GITHUB_TOKEN is not set');

    const noFile = await comment(['--repo', 'acme/widgets', '--pr', '7']);
    expect(noFile.exitCode).toBe(2);
    expect(noFile.stderr).toContain('cannot read the report drift-report.md: ENOENT');

    const badRepo = await comment(['--repo', 'widgets', '--pr', '7', '--report', report]);
    expect(badRepo.exitCode).toBe(2);
    expect(badRepo.stderr).toContain('--repo must be OWNER/NAME');

    const badPr = await comment(['--repo', 'acme/widgets', '--pr', '7; rm -rf /', '--report', report]);
    expect(badPr.exitCode).toBe(2);
    expect(badPr.stderr).toContain('--pr must be a pull request number');

    const noPr = await comment(['--repo', 'acme/widgets', '--report', report]);
    expect(noPr.exitCode).toBe(2);
    expect(noPr.stderr).toContain("required option '--pr <number>' not specified");
    expect(github.requests).toHaveLength(0);
  });

  it('explains an API it cannot reach', async () => {
    const closed = await startFakeGitHub();
    await closed.close(); // nothing listens there any more
    const result = await comment(['--repo', 'acme/widgets', '--pr', '7', '--report', writeReport('r.md', renderMarkdown(syntheticReport(1)))], { GITHUB_API_URL: closed.url });
    expect(result.exitCode, result.stderr + result.stdout).toBe(2);
    expect(result.stderr).toContain(`could not reach the GitHub API at ${closed.url}: connect ECONNREFUSED`);
    expect(result.stderr).toContain('Check GITHUB_API_URL and the network.');
  });
});
