/**
 * `drift report --from r.json` and the page's options, through the built CLI: the page from a saved
 * JSON report is the page `drift diff --format html` writes, a report that is not one is refused with
 * its place and nothing is written, and the comment links the page.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderJson } from '../../src/report/json.js';
import { runDrift, runDriftWithEnvironment } from '../helpers/drift.js';
import { startFakeGitHub } from '../helpers/fake-github.js';
import { bundledProviders, REPO, tempDir } from '../helpers/project.js';
import { syntheticReport } from '../helpers/reports.js';

const SHA = 'abcdef0123456789abcdef0123456789abcdef01';
let temp: ReturnType<typeof tempDir>;
const file = (name: string) => path.join(temp.dir, name);

beforeAll(() => {
  temp = tempDir('drift-report-');
});

afterAll(() => temp.remove());

describe('drift report', () => {
  it('renders from the JSON report the same page drift diff writes, byte for byte, with the same links', async () => {
    // The pages sit in one folder, so their relative links to the project root are the same.
    const [json, html] = await Promise.all([
      runDrift(['diff', '--format', 'json', '-o', file('r.json')], REPO),
      runDrift(['diff', '--format', 'html', '-o', file('diff.html'), '--link-base', '../'], REPO),
    ]);
    expect(json.exitCode, json.all).toBe(0);
    expect(html.exitCode, html.all).toBe(0);
    const report = await runDrift(['report', '--from', file('r.json'), '--format', 'html', '-o', file('report.html'), '--link-base', '../'], REPO);
    expect(report.exitCode, report.all).toBe(0);
    const page = readFileSync(file('report.html'), 'utf8');
    expect(page).toBe(readFileSync(file('diff.html'), 'utf8'));
    expect(page).toMatch(/href="\.\.\/providers\/vultr\/function\/composer\.py"/);
    // The JSON carries each rendered cell's reconcile steps, which the page draws.
    const timelines = (JSON.parse(readFileSync(file('r.json'), 'utf8')) as { timelines: Record<string, Record<string, unknown>> }).timelines;
    expect(Object.keys(timelines)).toEqual(bundledProviders());
    expect(Object.keys(timelines.gke!)).toContain('converge');
  });

  it('links places to GitHub at --github-sha, or under --link-base; other formats take no link option', async () => {
    writeFileSync(file('synthetic.json'), renderJson(syntheticReport(3)));
    const github = await runDriftWithEnvironment(['report', '--from', file('synthetic.json'), '--format', 'html', '--github-sha', SHA], temp.dir, { GITHUB_REPOSITORY: 'acme/widgets', GITHUB_SERVER_URL: 'https://github.example/' });
    expect(github.exitCode, github.stderr).toBe(0);
    expect(github.stdout.startsWith('<!doctype html>')).toBe(true);
    const bare = await runDriftWithEnvironment(['report', '--from', file('synthetic.json'), '--format', 'html', '--github-sha', SHA], temp.dir, {});
    expect(bare.exitCode).toBe(2);
    expect(bare.stderr).toContain('--github-sha needs GITHUB_REPOSITORY=OWNER/NAME');
    for (const [args, says] of [
      [['--github-sha', 'main'], "--github-sha must be a commit's hex SHA"],
      [['--link-base', 'https://x.example/"><script>'], '--link-base must be a plain https URL or a relative path'],
      [['--link-base', 'javascript:alert(1)'], '--link-base must be a plain https URL or a relative path'],
      [['--format', 'text', '--link-base', '../'], '--link-base is for --format html'],
    ] as const) {
      const refused = await runDrift(['report', '--from', file('synthetic.json'), '--format', 'html', ...args], temp.dir);
      expect(refused.exitCode, args.join(' ')).toBe(2);
      expect(refused.stderr, args.join(' ')).toContain(says);
    }
  });

  it('refuses a file that is not a drift report with its line and column, and writes nothing', async () => {
    writeFileSync(file('broken.json'), '{\n  "schemaVersion": 2,\n  "tool": "drift",\n  oops\n}\n');
    const broken = await runDrift(['report', '--from', file('broken.json'), '--format', 'html', '-o', file('broken.html')], temp.dir);
    expect(broken.exitCode).toBe(2);
    expect(broken.stderr).toMatch(/broken\.json:4:3: not valid JSON/);
    expect(existsSync(file('broken.html'))).toBe(false);
    const missing = await runDrift(['report', '--from', file('nothing.json'), '--format', 'html'], temp.dir);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('cannot read the report');
  });
});

describe('the comment', () => {
  it('links the page given by --page-url, and refuses a URL that is not a plain https one', async () => {
    const github = await startFakeGitHub({ pulls: ['acme/widgets#7'] });
    try {
      writeFileSync(file('comment.json'), renderJson(syntheticReport(2)));
      const env = { PATH: process.env.PATH ?? '', GITHUB_API_URL: github.url, GITHUB_TOKEN: 'ghs_test_token_0123456789' };
      const args = ['comment', '--repo', 'acme/widgets', '--pr', '7', '--report', file('comment.json')];
      const page = 'https://github.example/acme/widgets/actions/runs/42/artifacts/7';
      const posted = await runDriftWithEnvironment([...args, '--page-url', page], temp.dir, env);
      expect(posted.exitCode, posted.stderr).toBe(0);
      expect(github.commentsOn('acme/widgets#7')[0]!.body).toContain(`**[The conformance page](${page})**`);
      const refused = await runDriftWithEnvironment([...args, '--page-url', 'https://x.example/a)[b](c'], temp.dir, env);
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toContain('--page-url must be a plain https URL');
    } finally {
      await github.close();
    }
  });
});
