/**
 * Nothing drift publishes carries a secret of drift's environment or a path of this machine, whatever
 * the function prints (src/util/redact.ts, applied where the function's answers and errors enter
 * drift: src/pipeline/providerRender.ts): the text, JSON and markdown reports, the pull-request
 * comment, and the MCP server's answers. The leaky fixture prints its tokens and paths as a Fatal
 * result and as an import error.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactor } from '../../src/util/redact.js';
import { driftTools, runDrift, runDriftWithEnvironment } from '../helpers/drift.js';
import { startFakeGitHub } from '../helpers/fake-github.js';
import { leakyProject } from '../helpers/leaky.js';
import { leakIn } from '../helpers/machine.js';

const GITHUB_TOKEN = 'ghp_RedactionTestToken0123456789';
const ACME_TOKEN = 'acme-secret-passed-to-the-function';
const SECRETS = [GITHUB_TOKEN, ACME_TOKEN];

describe.each(['fatal', 'raise'])('a function that prints secrets and paths (LEAKY_MODE=%s)', (mode) => {
  let project: { dir: string; remove: () => void };
  const env = { LEAKY_MODE: mode, GITHUB_TOKEN, ACME_TOKEN, DRIFT_NO_CACHE: '1' };
  beforeAll(() => {
    project = leakyProject();
  });
  afterAll(() => project.remove());

  it.each(['text', 'json', 'markdown'])('never reaches the %s report, and says what it hid', async (format) => {
    const run = await runDrift(['diff', '--format', format], project.dir, env);
    expect(run.all).toContain(mode === 'fatal' ? 'Fatal result' : 'leaky fixture cannot start');
    expect(leakIn(run.all, project.dir, SECRETS)).toBeUndefined();
    // The function did print them: the token it was handed, shown by name, and its folder, relative
    // (markdown escapes the same text).
    const shown = format === 'markdown' ? run.all.replaceAll('\\_', '_').replaceAll('&lt;', '<').replaceAll('&gt;', '>') : run.all;
    expect(shown).toContain('ACME_TOKEN=<ACME_TOKEN>');
    expect(shown).toContain('file=./providers/leaky/main.py');
    expect(shown).toContain('python=<python>/bin/python');
  });

  it('never reaches the pull-request comment', async () => {
    const report = await runDrift(['diff', '--format', 'json'], project.dir, env);
    const file = path.join(project.dir, 'drift-report.json');
    writeFileSync(file, report.stdout);
    const github = await startFakeGitHub({ pulls: ['acme/widgets#7'] });
    try {
      const posted = await runDriftWithEnvironment(['comment', '--repo', 'acme/widgets', '--pr', '7', '--report', file], project.dir, { PATH: process.env.PATH!, GITHUB_API_URL: github.url, GITHUB_TOKEN });
      expect(posted.exitCode, posted.all).toBe(0);
      const body = github.commentsOn('acme/widgets#7')[0]!.body;
      expect(body).toContain('leaky');
      expect(leakIn(body, project.dir, SECRETS)).toBeUndefined();
    } finally {
      await github.close();
    }
  });

  it("never reaches the MCP server's answers", async () => {
    const tools = await driftTools(project.dir, env);
    const answers = JSON.stringify([await tools.diff({ provider: 'leaky' }), await tools.render({ provider: 'leaky', scenario: 'one' }).catch((error: Error) => error.message)]);
    expect(answers).toContain('leaky');
    expect(leakIn(answers, project.dir, SECRETS)).toBeUndefined();
  });
});

describe('the redactor', () => {
  const redact = redactor(
    { GITHUB_TOKEN: 'ghp_abcdef', AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI', SHORT_TOKEN: 'abc', PATH: '/usr/bin' },
    { root: ['/tmp/work/proj'], roots: new Map([['/srv/shared', '../../../srv/shared']]), home: ['/home/al'], tmp: ['/tmp'], python: new Map([['/opt/venv', '<python>'], ['/usr/lib/python3.11', '<python>/lib/python3.11']]) },
  );

  it('hides secret values by name, paths by the longest folder that holds them', () => {
    expect(redact('token ghp_abcdef and wJalrXUtnFEMI')).toBe('token <GITHUB_TOKEN> and <AWS_SECRET_ACCESS_KEY>');
    expect(redact('/tmp/work/proj/providers/a.py /tmp/x /home/al/.cache /opt/venv/bin/python /usr/lib/python3.11/asyncio/x.py /srv/shared/b')).toBe(
      './providers/a.py <tmp>/x ~/.cache <python>/bin/python <python>/lib/python3.11/asyncio/x.py ../../../srv/shared/b',
    );
  });

  it('leaves a folder that only starts like one alone, and a secret too short to be one', () => {
    expect(redact('/home/alice /tmpfs /tmp/work/project abc /usr/bin')).toBe('/home/alice /tmpfs <tmp>/work/project abc /usr/bin');
  });
});
