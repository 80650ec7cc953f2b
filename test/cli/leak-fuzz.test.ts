/**
 * A fuzz test (fast-check, fixed seed) of what drift publishes from a function's output (issue 39):
 * the leaky fixture fails with a Fatal result that prints whatever this test wrote into its say.txt,
 * random control characters, drift's secrets and this machine's absolute paths among other text. No
 * report (text, JSON, markdown), no pull-request comment body and no MCP answer, as the bytes leave
 * drift, holds a secret, a machine path or a raw control character. Each case is a new source tree,
 * so each render is live.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { realpathSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driftBin, runDrift, runDriftWithEnvironment } from '../helpers/drift.js';
import { startFakeGitHub, type FakeGitHub } from '../helpers/fake-github.js';
import { leakyProject } from '../helpers/leaky.js';
import { leakIn } from '../helpers/machine.js';
import { REPO } from '../helpers/project.js';

const SEED = 20_261_207;
const RUNS = 20;
const GITHUB_TOKEN = 'ghp_FuzzTestTokenValue0123456789';
const ACME_TOKEN = 'acme-fuzz-secret-value';
const CLOUD_SECRET = 'wJalrFuzzCloudSecretKey';
const SECRETS = [GITHUB_TOKEN, ACME_TOKEN, CLOUD_SECRET];
/** What may not reach a terminal raw: every C0 control but newline and tab, DEL and C1. */
// oxlint-disable-next-line no-control-regex -- what the test looks for
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** One line of drift mcp's stdout per message: the bytes an MCP client receives. */
class RawMcp {
  private readonly child: ChildProcess;
  private readonly waiting = new Map<number, (line: string) => void>();
  private id = 0;

  constructor(cwd: string, env: Record<string, string>) {
    this.child = spawn(process.execPath, [driftBin(), 'mcp'], { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      const id = (JSON.parse(line) as { id?: number }).id;
      if (id !== undefined) this.waiting.get(id)?.(line);
    });
  }

  /** The raw line answering a request. */
  request(method: string, params: unknown): Promise<string> {
    const id = ++this.id;
    const answered = new Promise<string>((resolve) => this.waiting.set(id, resolve));
    this.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    return answered;
  }

  notify(method: string): void {
    this.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
  }

  stop(): void {
    this.child.stdin!.end();
    this.child.kill('SIGTERM');
  }
}

describe('random secrets, paths and control characters in a failing function’s output', () => {
  let project: { dir: string; remove: () => void };
  let github: FakeGitHub;
  let mcp: RawMcp;
  const env = { LEAKY_MODE: 'fatal', GITHUB_TOKEN, ACME_TOKEN, CLOUD_SECRET_KEY: CLOUD_SECRET, DRIFT_NO_CACHE: '1' };

  beforeAll(async () => {
    project = leakyProject();
    github = await startFakeGitHub({ pulls: ['acme/widgets#7'] });
    const base = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[0] !== 'CI'));
    mcp = new RawMcp(project.dir, { ...base, ...env });
    await mcp.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '0' } });
    mcp.notify('notifications/initialized');
  });
  afterAll(async () => {
    mcp?.stop();
    await github?.close();
    project?.remove();
  });

  it('never reach a report, the comment body or an MCP answer', async () => {
    // The machine's folders drift is to hide (docs/limits.md): the project, the interpreter's environment
    // (as the project links it, through the repository's link, and for real), the temporary and home folders.
    const folders = [...new Set([project.dir, path.join(project.dir, '.venv'), path.join(REPO, '.venv'), tmpdir(), homedir()].flatMap((folder) => [folder, realpathSync(folder)]))];
    const fragment = fc.oneof(
      fc.integer({ min: 0, max: 0x9f }).filter((code) => code < 0x20 || code >= 0x7f).map((code) => String.fromCharCode(code)),
      fc.constantFrom(...SECRETS),
      fc.tuple(fc.constantFrom(...folders), fc.constantFrom('', '/', '/providers/leaky/main.py', '/lib/python3.11/site.py', '/.ssh/id_rsa')).map(([folder, rest]) => `${folder}${rest}`),
      fc.string({ maxLength: 6 }),
    );
    const say = fc.array(fragment, { minLength: 1, maxLength: 8 }).chain((parts) => fc.constantFrom(' ', '\n', '').map((glue) => parts.join(glue)));
    await fc.assert(
      fc.asyncProperty(say, async (text) => {
        writeFileSync(path.join(project.dir, 'providers/leaky/say.txt'), text);
        const published: Record<string, string> = {};
        let json = '';
        for (const format of ['text', 'json', 'markdown']) {
          const run = await runDrift(['diff', '--format', format], project.dir, env);
          expect(run.exitCode, run.all).toBeLessThan(2);
          published[format] = run.all;
          if (format === 'json') json = run.stdout;
        }
        expect(published.text).toContain('Fatal result');
        const report = path.join(project.dir, 'drift-report.json');
        writeFileSync(report, json);
        const posted = await runDriftWithEnvironment(['comment', '--repo', 'acme/widgets', '--pr', '7', '--report', report], project.dir, { PATH: process.env.PATH!, GITHUB_API_URL: github.url, GITHUB_TOKEN });
        expect(posted.exitCode, posted.all).toBe(0);
        published.comment = github.commentsOn('acme/widgets#7').at(-1)!.body;
        published.mcp = await mcp.request('tools/call', { name: 'diff', arguments: { provider: 'leaky' } });
        expect(published.mcp).toContain('Fatal result');
        for (const [where, bytes] of Object.entries(published)) {
          expect(leakIn(bytes, project.dir, SECRETS), `${where} of ${JSON.stringify(text)}`).toBeUndefined();
          const raw = RAW_CONTROL.exec(bytes);
          expect(raw?.[0], `${where} of ${JSON.stringify(text)}: …${JSON.stringify(bytes.slice(Math.max(0, (raw?.index ?? 0) - 80), (raw?.index ?? 0) + 20))}…`).toBeUndefined();
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  }, 900_000);
});
