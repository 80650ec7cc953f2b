/**
 * `drift comment` end to end: the built binary against a local fake of GitHub's comment endpoints.
 * The report it reads is the JSON a pull request's own run wrote, so the tests treat it as hostile.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { provenance } from '../../src/cli/commentCommand.js';
import type { Finding } from '../../src/compare/findings.js';
import { renderJson } from '../../src/report/json.js';
import { GITHUB_COMMENT_LIMIT, renderMarkdown } from '../../src/report/markdown.js';
import { buildReport, type Report } from '../../src/report/model.js';
import { runDriftWithEnvironment } from '../helpers/drift.js';
import { startFakeGitHub, type FakeGitHub } from '../helpers/fake-github.js';
import { tempDir } from '../helpers/project.js';
import { cleanReport, PROVIDERS, SCENARIOS, syntheticReport } from '../helpers/reports.js';

const TOKEN = 'ghs_SuperSecretTestToken0123456789';
const PR = 'acme/widgets#7';
const MARKER = '<!-- drift-report: drift -->';
const ARGS = ['--repo', 'acme/widgets', '--pr', '7'];

let github: FakeGitHub;
let temp: ReturnType<typeof tempDir>;

beforeEach(async () => {
  github = await startFakeGitHub({ pulls: [PR] });
  temp = tempDir('drift-comment-');
});

afterEach(async () => {
  await github.close();
  temp.remove();
});

function writeFile(name: string, text: string): string {
  const file = path.join(temp.dir, name);
  writeFileSync(file, text);
  return file;
}

const writeReport = (name: string, report: Report) => writeFile(name, renderJson(report));

/** What drift itself renders from a report, as the comment job posts it. */
const rendering = (report: Report, runUrl?: string) => renderMarkdown(report, { note: provenance(runUrl) });

async function comment(args: string[], env: Record<string, string | undefined> = {}) {
  const given = { PATH: process.env.PATH, GITHUB_API_URL: github.url, GITHUB_TOKEN: TOKEN, ...env };
  const result = await runDriftWithEnvironment(['comment', ...args], temp.dir, Object.fromEntries(Object.entries(given).filter((entry): entry is [string, string] => entry[1] !== undefined)));
  expect(`${result.stdout}\n${result.stderr}`).not.toContain(TOKEN);
  expect(`${result.stdout}\n${result.stderr}`).not.toContain('SuperSecret');
  return result;
}

const writes = (server = github) => server.requests.filter((request) => request.method !== 'GET' && request.url !== '/graphql');
const commentPages = (server = github) => server.requests.filter((r) => r.method === 'GET' && r.url.includes('/comments'));

describe('drift comment', () => {
  it('renders the JSON report itself, creates the comment, then updates the same one in place', async () => {
    const five = syntheticReport(5);
    const created = await comment([...ARGS, '--report', writeReport('first.json', five), '--run-url', 'https://github.example/acme/widgets/actions/runs/42']);
    expect(created.exitCode, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^drift: created comment 1000 on acme\/widgets#7 \(as github-actions\[bot\]\): https:\/\/\S+issuecomment-1000$/m);
    expect(github.commentsOn(PR)).toHaveLength(1);
    const posted = github.commentsOn(PR)[0]!.body;
    expect(posted).toBe(rendering(five, 'https://github.example/acme/widgets/actions/runs/42'));
    expect(posted.startsWith(`${MARKER}\n## ❌ drift: 5 findings`)).toBe(true);
    expect(posted).toContain("from the report of [the pull request's own drift run](https://github.example/acme/widgets/actions/runs/42). That run's status check, not this comment, is what merging should depend on.");
    expect(github.requests[0]!.headers.authorization).toBe(`token ${TOKEN}`);
    expect(writes().map((r) => `${r.method} ${r.url}`)).toEqual(['POST /repos/acme/widgets/issues/7/comments']);

    const eight = syntheticReport(8);
    const updated = await comment([...ARGS, '--report', writeReport('second.json', eight)]);
    expect(updated.exitCode, updated.stderr).toBe(0);
    expect(updated.stdout).toContain('drift: updated comment 1000 on acme/widgets#7');
    expect(github.commentsOn(PR)).toHaveLength(1);
    expect(github.commentsOn(PR)[0]!.body).toBe(rendering(eight));
    expect(writes().map((r) => `${r.method} ${r.url}`)).toEqual(['POST /repos/acme/widgets/issues/7/comments', 'PATCH /repos/acme/widgets/issues/comments/1000']);

    // The same report again changes nothing.
    const again = await comment([...ARGS, '--report', writeReport('second.json', eight)]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toContain('drift: unchanged comment 1000');
    expect(writes()).toHaveLength(2);
  });

  it('reads drift-report.json by default, and turns a dirty comment clean', async () => {
    writeReport('drift-report.json', syntheticReport(4));
    expect((await comment(ARGS)).exitCode).toBe(0);
    expect(github.commentsOn(PR)[0]!.body).toContain('## ❌ drift: 4 findings');

    writeReport('drift-report.json', cleanReport());
    const result = await comment(ARGS);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('updated comment 1000');
    expect(github.commentsOn(PR)).toHaveLength(1);
    expect(github.commentsOn(PR)[0]!.body).toContain('## ✅ drift: clean');
    expect(github.commentsOn(PR)[0]!.body).not.toContain('❌');
  });

  it("leaves a person's comment that begins with the marker untouched and creates its own (a person's token: GET /user)", async () => {
    await github.close();
    github = await startFakeGitHub({ pulls: [PR], token: { kind: 'person', login: 'alice' } });
    const impostor = github.addComment(PR, `${MARKER}\n## ✅ drift: clean\n\nlooks fine to me`, { login: 'mallory', type: 'User' });
    const botLike = github.addComment(PR, `${MARKER}\nthe Actions bot's, not alice's`, { login: 'github-actions[bot]', type: 'Bot' });
    const report = syntheticReport(3);

    const first = await comment([...ARGS, '--report', writeReport('r.json', report)]);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toContain('created comment 1002');
    expect(first.stdout).toContain('(as alice)');
    expect(impostor.body).toBe(`${MARKER}\n## ✅ drift: clean\n\nlooks fine to me`);
    expect(botLike.body).toBe(`${MARKER}\nthe Actions bot's, not alice's`);
    expect(github.commentsOn(PR).map((c) => [c.user.login, c.body === rendering(report)])).toEqual([
      ['mallory', false],
      ['github-actions[bot]', false],
      ['alice', true],
    ]);
    expect(github.requests.some((r) => r.method === 'GET' && r.url === '/user')).toBe(true);
    expect(github.requests.some((r) => r.url === '/graphql')).toBe(false);

    // Next time it updates its own comment, still leaving the others alone.
    const second = await comment([...ARGS, '--report', writeReport('r.json', cleanReport())]);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stdout).toContain('updated comment 1002');
    expect(impostor.body).toContain('looks fine to me');
    expect(github.commentsOn(PR)).toHaveLength(3);
  });

  it("with the Actions token (403 on GET /user) finds itself through GraphQL's viewer, on a later page", async () => {
    await github.close();
    github = await startFakeGitHub({ pulls: [PR], maxPerPage: 2 });
    const foreign = [
      github.addComment(PR, `${MARKER}\n## ✅ drift: clean (pasted by a person)`),
      github.addComment(PR, `> ${MARKER}\n> quoting the bot`),
      github.addComment(PR, 'a comment that mentions <!-- drift-report: drift --> in the middle'),
    ];
    const ours = github.addComment(PR, `${MARKER}\n## ❌ drift: 1 finding (1 contract)\n\nold`, { login: 'github-actions[bot]', type: 'Bot' });
    github.addComment(PR, 'a later comment');
    github.addComment('acme/widgets#8', `${MARKER}\nanother pull request's report`, { login: 'github-actions[bot]', type: 'Bot' });
    const before = foreign.map((c) => c.body);

    const result = await comment([...ARGS, '--report', writeReport('r.json', cleanReport())]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain(`updated comment ${ours.id} on acme/widgets#7 (as github-actions[bot])`);
    expect(ours.body).toContain('## ✅ drift: clean');
    expect(foreign.map((c) => c.body)).toEqual(before);
    expect(github.comments).toHaveLength(6);
    expect(github.requests.slice(0, 2).map((r) => `${r.method} ${r.url}`)).toEqual(['GET /user', 'POST /graphql']);
    expect(commentPages().map((r) => new URL(r.url, github.url).searchParams.get('page') ?? '1')).toEqual(['1', '2', '3']);
    expect(writes().map((r) => `${r.method} ${r.url}`)).toEqual([`PATCH /repos/acme/widgets/issues/comments/${ours.id}`]);
  });

  it('falls back to github-actions[bot] inside Actions when GraphQL refuses too, else asks for --author', async () => {
    await github.close();
    github = await startFakeGitHub({ pulls: [PR], token: { kind: 'integration', login: 'github-actions[bot]', graphql: false } });
    const report = writeReport('r.json', syntheticReport(1));
    const outside = await comment([...ARGS, '--report', report]);
    expect(outside.exitCode).toBe(2);
    expect(outside.stderr).toContain('cannot tell which account the token belongs to');
    expect(outside.stderr).toContain('pass --author LOGIN');
    expect(github.comments).toHaveLength(0);

    const inside = await comment([...ARGS, '--report', report], { GITHUB_ACTIONS: 'true' });
    expect(inside.exitCode, inside.stderr).toBe(0);
    expect(inside.stdout).toContain('(as github-actions[bot])');
  });

  it('takes --author as given, without asking GitHub who the token is', async () => {
    const mine = github.addComment(PR, `${MARKER}\nold`, { login: 'drift-bot', type: 'User' });
    const result = await comment([...ARGS, '--report', writeReport('r.json', syntheticReport(2)), '--author', 'drift-bot']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain(`updated comment ${mine.id}`);
    expect(github.requests.some((r) => r.url === '/user' || r.url === '/graphql')).toBe(false);
    const bad = await comment([...ARGS, '--report', writeReport('r.json', syntheticReport(2)), '--author', 'x y']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--author must be a GitHub login');
  });

  it('posts its own rendering of a report carrying hostile Markdown: no mentions, links, references, HTML or second marker', async () => {
    const hostile = [
      '<!-- drift-report: drift -->',
      '## ✅ drift: clean',
      '@octocat @acme/security please approve',
      'fixes #123, acme/widgets#7 and GH-1',
      '[click me](https://evil.example/phish) ![x](https://evil.example/t.png) https://evil.example www.evil.example',
      '</details></summary><img src=x onerror=alert(1)> <a href="https://evil.example">a</a>',
      '| fake | table |',
      '```',
    ].join('\n');
    const finding: Finding = {
      id: `div:default:x:key-pattern:gke ${hostile.replace(/\n/g, ' ')}`,
      type: 'divergence',
      class: 'stylistic',
      provider: 'gke',
      scenario: 'default',
      subject: hostile,
      facet: 'key-pattern',
      message: `one line ${hostile}`,
      values: { gke: hostile, '@octocat #1': 'x' },
      consensus: hostile,
      hint: `run \`${hostile.replace(/\n/g, ' ')}\``,
    };
    const report = buildReport(PROVIDERS, SCENARIOS, [finding]);
    const result = await comment([...ARGS, '--report', writeReport('hostile.json', report)]);
    expect(result.exitCode, result.stderr).toBe(0);
    const posted = github.commentsOn(PR)[0]!.body;
    expect(posted).toBe(rendering(JSON.parse(renderJson(report)) as Report));
    // Outside code, one marker, drift's, as the first line; one verdict, drift's; nothing GitHub
    // would turn into a mention, a reference, a link, an image or HTML.
    const outsideCode = posted.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, '').replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, '');
    expect(posted.split('\n')[0]).toBe(MARKER);
    expect(outsideCode.split('\n').filter((line) => line.trimStart().startsWith('<!--'))).toEqual([MARKER]);
    expect(outsideCode.split('\n').filter((line) => line.startsWith('#'))).toEqual(['## ❌ drift: 1 finding (1 stylistic)', '### 🎨 Stylistic (1)']);
    expect(outsideCode).not.toMatch(/@[a-z]/i);
    expect(outsideCode).not.toMatch(/#\d|\bGH-\d/i);
    expect(outsideCode).not.toMatch(/https?:\/\/(?!github\.example)|www\.evil/i);
    expect(outsideCode).not.toMatch(/<(img|a|script)\b|<\/summary><img/i);
    expect(outsideCode).not.toMatch(/(?<!\\)\]\(/);
  });

  it('renders a newer report generically, and refuses one of an unknown schemaVersion clearly', async () => {
    const data = JSON.parse(renderJson(syntheticReport(1))) as Record<string, unknown> & { findings: Array<Record<string, unknown>> };
    const newer = { ...data, findings: [{ ...data.findings[0], type: 'quarantine', cohorts: [['eks'], ['gke']] }], newField: true };
    const ok = await comment([...ARGS, '--report', writeFile('newer.json', JSON.stringify(newer))]);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(github.commentsOn(PR)[0]!.body).toContain('**quarantine**');

    const future = await comment([...ARGS, '--report', writeFile('v4.json', JSON.stringify({ ...data, schemaVersion: 4 }))]);
    expect(future.exitCode).toBe(2);
    expect(future.stderr).toContain('is a drift report of schemaVersion 4, which this drift cannot read (it reads 1, 2, 3): update drift');
    expect(writes()).toHaveLength(1);
  });

  it('refuses what is not a valid report, naming the file, line and column, before talking to GitHub', async () => {
    const markdown = await comment([...ARGS, '--report', writeFile('report.md', `${MARKER}\n## ✅ drift: clean\n`)]);
    expect(markdown.exitCode).toBe(2);
    expect(markdown.stderr).toMatch(/report\.md:1:1: not valid JSON/);

    const broken = await comment([...ARGS, '--report', writeFile('broken.json', '{\n  "schemaVersion": 1,\n  "tool": "drift",\n  oops\n}\n')]);
    expect(broken.exitCode).toBe(2);
    expect(broken.stderr).toMatch(/broken\.json:4:3: not valid JSON/);

    const data = JSON.parse(renderJson(syntheticReport(1))) as Record<string, unknown> & { findings: Array<Record<string, unknown>> };
    const invalid = await comment([...ARGS, '--report', writeFile('invalid.json', JSON.stringify({ ...data, findings: [{ ...data.findings[0], class: 'cosmetic' }] }, null, 2))]);
    expect(invalid.exitCode).toBe(2);
    expect(invalid.stderr).toMatch(/invalid\.json:\d+:\d+: "findings\.0\.class" must be one of "contract", "behavioral", "stylistic"/);

    const other = await comment([...ARGS, '--report', writeFile('other.json', '{"hello": "world"}')]);
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toContain('is not a drift JSON report');

    const huge = await comment([...ARGS, '--report', writeFile('huge.json', `{"pad": "${'x'.repeat(9 * 1024 * 1024)}"}`)]);
    expect(huge.exitCode).toBe(2);
    expect(huge.stderr).toMatch(/huge\.json has \d+ bytes, more than the \d+ a drift report may have/);
    expect(github.requests).toHaveLength(0);
  });

  it('posts a report with thousands of findings within the limit, saying what it dropped', async () => {
    const report = syntheticReport(4000, 100, { diffLines: 20 });
    const unbounded = renderMarkdown(report, { budget: 100_000_000 }).length;
    expect(unbounded).toBeGreaterThan(GITHUB_COMMENT_LIMIT);
    const result = await comment([...ARGS, '--report', writeReport('big.json', report)]);
    expect(result.exitCode, result.stderr).toBe(0);
    const posted = github.commentsOn(PR)[0]!.body;
    console.log(`oversized report: ${unbounded} characters unbounded, ${posted.length} posted`);
    expect(posted.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(posted).toContain("dropped to fit GitHub's comment limit; run `drift diff` locally or see the job's artifact");
    expect(posted).toContain("> Shortened to fit GitHub's comment limit: details of");
  });

  it('keeps reports with different ids in different comments', async () => {
    const drift = await comment([...ARGS, '--report', writeReport('a.json', syntheticReport(2))]);
    const nightly = await comment([...ARGS, '--report', writeReport('b.json', syntheticReport(3)), '--id', 'nightly']);
    expect([drift.exitCode, nightly.exitCode]).toEqual([0, 0]);
    expect(github.commentsOn(PR).map((c) => c.body.split('\n')[0])).toEqual([MARKER, '<!-- drift-report: nightly -->']);
  });

  it('sends the token only to the origin of GITHUB_API_URL: a Link to another origin is refused', async () => {
    const elsewhere = await startFakeGitHub({ pulls: [PR] });
    await github.close();
    github = await startFakeGitHub({ pulls: [PR], maxPerPage: 1, linkBase: elsewhere.url });
    try {
      github.addComment(PR, 'one');
      github.addComment(PR, 'two');
      const result = await comment([...ARGS, '--report', writeReport('r.json', syntheticReport(1))]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(`GitHub's answer pointed drift at ${elsewhere.url}, not at GITHUB_API_URL's ${github.url}: refused`);
      expect(elsewhere.requests).toHaveLength(0);
      expect(writes()).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });

  it.each([
    ['http://api.github.example', 'must be https'],
    ['http://10.0.0.1:8080', 'must be https'],
    ['ftp://127.0.0.1', 'must be https'],
    ['https://user:pass@api.github.example', 'without credentials'],
    ['not a url', 'must be a URL'],
  ])('refuses GITHUB_API_URL %s before sending anything', async (url, message) => {
    const result = await comment([...ARGS, '--report', writeReport('r.json', syntheticReport(1))], { GITHUB_API_URL: url });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(message);
    expect(github.requests).toHaveLength(0);
  });

  it.each([
    [401, {}, /GitHub rejected the token \(401\).*check that GITHUB_TOKEN holds a valid, unexpired token/],
    [403, { GITHUB_ACTIONS: 'true' }, /refused to let this token comment on acme\/widgets#7 \(403\) \(GitHub said: Resource not accessible by integration[^)]*\).*permissions: pull-requests: write/],
    [404, { GITHUB_ACTIONS: 'true' }, /found no pull request acme\/widgets#7 \(404\).*check --repo OWNER\/NAME and --pr NUMBER/],
  ])('explains a %i and exits 2 without printing the token', async (status, env, message) => {
    github.failWith(status);
    const result = await comment([...ARGS, '--report', writeReport('r.json', syntheticReport(1))], env);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(github.requests.length).toBeGreaterThan(0);
    expect(github.comments).toHaveLength(0);
  });

  it('says which pull request it could not find when the number is wrong', async () => {
    const result = await comment(['--repo', 'acme/widgets', '--pr', '99', '--report', writeReport('r.json', syntheticReport(1))]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('acme/widgets#99 (404)');
  });

  it('exits 2 with a clear message when the token or the report is missing, or the arguments are wrong', async () => {
    const report = writeReport('r.json', syntheticReport(1));
    const noToken = await comment([...ARGS, '--report', report], { GITHUB_TOKEN: undefined });
    expect(noToken.exitCode).toBe(2);
    expect(noToken.stderr).toContain('GITHUB_TOKEN is not set');

    const noFile = await comment(ARGS);
    expect(noFile.exitCode).toBe(2);
    expect(noFile.stderr).toContain('cannot read the report drift-report.json: ENOENT');

    const badRepo = await comment(['--repo', 'widgets', '--pr', '7', '--report', report]);
    expect(badRepo.exitCode).toBe(2);
    expect(badRepo.stderr).toContain('--repo must be OWNER/NAME');

    const badPr = await comment(['--repo', 'acme/widgets', '--pr', '7; rm -rf /', '--report', report]);
    expect(badPr.exitCode).toBe(2);
    expect(badPr.stderr).toContain('--pr must be a pull request number');

    const badRun = await comment([...ARGS, '--report', report, '--run-url', 'https://x.example/run)[evil](https://evil.example']);
    expect(badRun.exitCode).toBe(2);
    expect(badRun.stderr).toContain('--run-url must be a plain https URL');

    const noPr = await comment(['--repo', 'acme/widgets', '--report', report]);
    expect(noPr.exitCode).toBe(2);
    expect(noPr.stderr).toContain("required option '--pr <number>' not specified");
    expect(github.requests).toHaveLength(0);
  });

  it('explains an API it cannot reach', async () => {
    const closed = await startFakeGitHub();
    await closed.close(); // nothing listens there any more
    const result = await comment([...ARGS, '--report', writeReport('r.json', syntheticReport(1))], { GITHUB_API_URL: closed.url });
    expect(result.exitCode, result.stderr + result.stdout).toBe(2);
    expect(result.stderr).toContain(`could not reach the GitHub API at ${closed.url}: connect ECONNREFUSED`);
    expect(result.stderr).toContain('Check GITHUB_API_URL and the network.');
  });
});
