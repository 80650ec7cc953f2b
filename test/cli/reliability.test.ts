/**
 * Reliability and security, round 3 (issue 21): the eleven ways a hostile or unlucky user broke drift,
 * each through the built CLI. One copy of the bundled project is shared; a test that edits it puts
 * the file back. Most cases fail while loading, before any function starts, so they cost little.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { parse, parseDocument } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDrift, startDrift } from '../helpers/drift.js';
import { startFakeGitHub } from '../helpers/fake-github.js';
import { processesIn, waitFor, within } from '../helpers/processes.js';
import { BROKEN, brokenAdapter, copyProject, REPO, replaceExactly, tempProject, writeFiles, type ProjectCopy } from '../helpers/project.js';
import { syntheticReport } from '../helpers/reports.js';

let project: ProjectCopy;
const cleanups: Array<() => void> = [];
beforeAll(() => {
  project = copyProject({ prefix: 'drift-reliability-' });
  cleanups.push(project.remove);
});
afterAll(() => cleanups.forEach((remove) => remove()));

const at = (relative: string) => path.join(project.dir, relative);
const GKE = 'providers/gke/provider.yaml';

/** Runs `body` with `relative` rewritten by `change`, then puts the file back as it was. */
async function withEdit<T>(relative: string, change: (text: string) => string, body: () => Promise<T>): Promise<T> {
  const before = readFileSync(at(relative), 'utf8');
  writeFileSync(at(relative), change(before));
  try {
    return await body();
  } finally {
    writeFileSync(at(relative), before);
  }
}

/** A drift error, not a crash: exit 2, one `drift:` line naming the file, no stack trace. */
function expectCleanError(run: { exitCode: number; stderr: string }, pattern: RegExp): void {
  expect(run.exitCode, run.stderr).toBe(2);
  expect(run.stderr).toMatch(pattern);
  expect(run.stderr).not.toMatch(/internal error|RangeError|\n\s+at /);
}

/** A dead process's pid: the writer of a leftover temporary file. */
async function deadPid(): Promise<number> {
  const child = execa('node', ['-e', '']);
  await child;
  return child.pid!;
}

describe('paths stay inside (1)', () => {
  it('a source root that is a symlink to / is refused at its adapter line, before anything is globbed', async () => {
    symlinkSync('/', at('providers/gke/rootlink'));
    try {
      const run = await withEdit(GKE, (text) => `${text}source: {root: rootlink}\n`, () => runDrift(['diff', '-p', 'gke', '-s', 'converge'], project.dir));
      expectCleanError(run, /providers\/gke\/provider\.yaml:\d+:\d+: source\.root "rootlink" lies outside the project \(through a symlink: it is really \/\)/);
      expect(run.stdout).toBe('');
    } finally {
      rmSync(at('providers/gke/rootlink'));
    }
  });

  it('an XRD outside the project is refused at the xrd line; roots: in drift.config.yaml lets it in', async () => {
    const xrd = path.join(REPO, 'providers/gke/apis/definition.yaml');
    const run = await withEdit(GKE, (text) => replaceExactly(text, 'xrd: apis/definition.yaml', `xrd: ${xrd}`), () => runDrift(['list'], project.dir));
    expectCleanError(run, /providers\/gke\/provider\.yaml:7:\d+: xrd ".*definition\.yaml" lies outside the project/);
    const allowed = await withEdit('drift.config.yaml', (text) => `${text}roots: [${path.join(REPO, 'providers')}]\n`, () =>
      withEdit(GKE, (text) => replaceExactly(text, 'xrd: apis/definition.yaml', `xrd: ${xrd}`), () => runDrift(['list'], project.dir)),
    );
    expect(allowed.exitCode, allowed.stderr).toBe(0);
  });
});

describe('every input is bounded (2, 4, 6, 7)', () => {
  it('CEL: range(100000000) in a template is an error at its line within seconds, not a hang or an out-of-memory', async () => {
    // Its own process with a deadline: the unbounded range() blocked the event loop for minutes.
    const run = await withEdit(GKE, (text) => replaceExactly(text, '  spec:\n    region: us-central1', '  spec:\n    region: "${string(size(range(100000000)))}"'), () =>
      startDrift(['list'], project.dir, { timeout: 20_000 }),
    );
    expect(run.timedOut, 'drift list still running after 20 s').toBe(false);
    expectCleanError({ exitCode: run.exitCode ?? -1, stderr: String(run.stderr) }, /providers\/gke\/provider\.yaml:12:\d+: xr template, for scenario .*range\(100000000\) counts past 1000/);
  });

  it('Python nested 10,000 deep is "nested deeper than 500" at its file:line, before anything renders', async () => {
    const deep = at('providers/gke/function/deep.py');
    writeFileSync(deep, `x = ${'('.repeat(10_000)}1${')'.repeat(10_000)}\n`);
    try {
      const run = await runDrift(['diff', '-p', 'gke', '-s', 'converge'], project.dir);
      expectCleanError(run, /providers\/gke\/function\/deep\.py:1:\d+: nested deeper than 500 syntax levels/);
      expect(run.stdout).toBe('');
    } finally {
      rmSync(deep);
    }
  });

  it('an XRD over the size limit is refused at once, naming the limit; one nested 5,000 deep is "nested deeper than 128" at its line', async () => {
    mkdirSync(at('apis'), { recursive: true });
    const big = at('apis/big.yaml');
    writeFileSync(big, `# ${'x'.repeat(5 * 1024 * 1024)}\nkind: CompositeResourceDefinition\n`);
    const large = await within(runDrift(['new-provider', 'big', '--xrd', 'apis/big.yaml'], project.dir), 10_000, 'new-provider to refuse the oversized XRD');
    expectCleanError(large, /apis\/big\.yaml:1:1: has \d+ bytes, more than the 4 MiB drift reads in one document/);
    writeFileSync(at('apis/deep.yaml'), `kind: CompositeResourceDefinition\nspec:\n  group: example.org\n  versions: ${'{k: '.repeat(5000)}1${'}'.repeat(5000)}\n`);
    const deep = await runDrift(['new-provider', 'deep', '--xrd', 'apis/deep.yaml'], project.dir);
    expectCleanError(deep, /apis\/deep\.yaml:\d+:\d+: nested deeper than 128 levels/);
    expect(deep.stderr).not.toContain('not valid YAML');
    expect(existsSync(at('providers/big')) || existsSync(at('providers/deep'))).toBe(false);
  });
});

describe('one atomic writer (3)', () => {
  it('what a killed `drift contract` left in the contract folder is swept by the next writing command, and git ignores it', async () => {
    const pid = await deadPid();
    const leftovers = [`providers/CONTRACT.md.drift-tmp-${pid}`, `providers/skills/drift-add-provider/SKILL.md.drift-tmp-${pid}`, `providers/CONTRACT.md.tmp-${pid}`, `goldens/gke/converge.yaml.drift-tmp-${pid}`];
    for (const file of leftovers) writeFileSync(at(file), 'half');
    // Another drift's write still in progress (a process that is alive: this test's parent) stays.
    const running = `providers/contract.json.drift-tmp-${process.ppid}`;
    writeFileSync(at(running), 'a write in progress');
    const run = await runDrift(['contract'], project.dir);
    expect(run.exitCode, run.stderr).toBe(0);
    for (const file of leftovers) {
      expect(existsSync(at(file)), file).toBe(false);
      expect(run.stderr).toContain(`removed ${file}`);
    }
    expect(existsSync(at(running))).toBe(true);
    rmSync(at(running));
    const ignored = await execa('git', ['check-ignore', '--no-index', ...leftovers.slice(0, 2)], { cwd: REPO, reject: false });
    expect(ignored.stdout.trim().split('\n')).toEqual(leftovers.slice(0, 2));
  });
});

describe('drafts through the YAML Document API (5)', () => {
  it('an XRD field named with ": " and a newline stays one key; the draft reads back and drift loads it', async () => {
    const gke = readFileSync(at('providers/gke/apis/definition.yaml'), 'utf8');
    const doc = parseDocument(replaceExactly(replaceExactly(gke, 'kind: GKECluster', 'kind: EvilCluster'), 'gkeclusters', 'evilclusters', 2));
    const spec = ['spec', 'versions', 0, 'schema', 'openAPIV3Schema', 'properties', 'spec'];
    doc.setIn([...spec, 'properties', 'evil: x\nname: injected'], doc.createNode({ type: 'string', example: 'a: b # not a comment', description: 'line one\nline: two' }));
    doc.setIn([...spec, 'required'], [...((doc.getIn([...spec, 'required']) as { toJSON(): string[] } | undefined)?.toJSON() ?? []), 'evil: x\nname: injected']);
    mkdirSync(at('apis'), { recursive: true });
    writeFileSync(at('apis/evil.yaml'), doc.toString());
    const run = await runDrift(['new-provider', 'evil', '--xrd', 'apis/evil.yaml'], project.dir);
    try {
      expect(run.exitCode, run.stderr).toBe(0);
      const draft = parse(readFileSync(at('providers/evil/provider.yaml'), 'utf8')) as { name: string; xr: { spec: Record<string, unknown> } };
      expect(draft.name).toBe('evil');
      expect(draft.xr.spec['evil: x\nname: injected']).toBe('a: b # not a comment');
      expect(Object.keys(draft).sort()).toEqual(['function', 'name', 'values', 'world', 'xr', 'xrd']);
      const list = await runDrift(['list'], project.dir);
      expect(list.exitCode, list.stderr).toBe(0);
      expect(list.stdout).toMatch(/evil\s+EvilCluster/);
    } finally {
      rmSync(at('providers/evil'), { recursive: true, force: true });
    }
  });
});

describe('names validated once (9)', () => {
  it.each([
    [['expect', '-p', '../gke'], /"\.\.\/gke" is not a provider name/],
    [['diff', '-s', 'converge/../x'], /"converge\/\.\.\/x" is not a scenario name/],
    [['lock', 'key-pattern', '--subject', '../x', '--reason', 'because'], /"\.\.\/x" is not a subject/],
  ])('drift %j is refused with the pattern', async (args, message) => {
    const run = await runDrift(args, project.dir);
    expectCleanError(run, message);
    expect(run.stdout).toBe('');
  });
});

describe('clear GitHub errors (8)', () => {
  it('every identity call refused (403): the message names each endpoint, its status and the permission GitHub asks for', async () => {
    const github = await startFakeGitHub({ pulls: ['acme/widgets#7'] });
    try {
      writeFileSync(at('report.json'), JSON.stringify(syntheticReport(1)));
      github.failWith(403, 'Resource not accessible by integration', { 'x-accepted-github-permissions': 'pull_requests=write; issues=write' });
      const env = { GITHUB_API_URL: github.url, GITHUB_TOKEN: 'ghs_secret_token', GITHUB_ACTIONS: 'false' };
      const identity = await runDrift(['comment', '--repo', 'acme/widgets', '--pr', '7', '--report', 'report.json'], project.dir, env);
      expectCleanError(identity, /cannot tell which account the token belongs to \(GET \/user answered 403; the permission it needs: pull_requests=write; issues=write .*; POST \/graphql answered 403/);
      // Past the identity (--author), the comment endpoints' refusal says the same.
      const listing = await runDrift(['comment', '--repo', 'acme/widgets', '--pr', '7', '--report', 'report.json', '--author', 'github-actions[bot]'], project.dir, env);
      expectCleanError(listing, /\(403\).*\[GET \/repos\/acme\/widgets\/issues\/7\/comments answered 403; the permission it needs: pull_requests=write; issues=write\]/);
      // Without the header, drift's own table names the permission.
      github.failWith(403, 'Resource not accessible by integration');
      const table = await runDrift(['comment', '--repo', 'acme/widgets', '--pr', '7', '--report', 'report.json', '--author', 'github-actions[bot]'], project.dir, env);
      expectCleanError(table, /GET \/repos\/acme\/widgets\/issues\/7\/comments answered 403; the permission it needs: pull_requests=read or issues=read/);
      for (const run of [identity, listing, table]) expect(run.all).not.toContain('ghs_secret_token');
    } finally {
      rmSync(at('report.json'), { force: true });
      await github.close();
    }
  });
});

/** A project whose one provider hangs, started through a shell that leaves a grandchild ignoring SIGTERM in its group. */
function hangingProject(): string {
  const hanging = tempProject({ providers: path.join('providers', '*.yaml'), scenarios: path.join(REPO, 'scenarios/converge.yaml'), timeouts: { startMs: 120_000, callMs: 120_000 } });
  cleanups.push(hanging.remove);
  const script = `(trap '' TERM; exec sleep 777 </dev/null >/dev/null 2>&1) & exec "$0" main.py --insecure --address "$1"`;
  const adapter = parseDocument(readFileSync(brokenAdapter('hang'), 'utf8'));
  adapter.setIn(['function', 'command'], ['sh', '-c', script, path.join(REPO, '.venv/bin/python'), '{address}']);
  adapter.setIn(['function', 'cwd'], path.join(BROKEN, 'hang'));
  writeFiles(hanging.dir, { 'providers/hang.yaml': adapter.toString() });
  return hanging.configFile;
}

/** drift render stuck on the hanging function's first call; its socket folder. */
async function stuckDrift(tag: string): Promise<{ child: ReturnType<typeof startDrift>; socketFolder: string }> {
  const child = startDrift(['--config', hangingProject(), 'render', '-p', 'hang', '-s', 'converge'], REPO, { env: { DRIFT_TEST_TAG: tag } });
  await waitFor(() => processesIn(path.join(BROKEN, 'hang'), tag).length === 2, 30_000, 'the hang function and its grandchild to start');
  const python = processesIn(path.join(BROKEN, 'hang'), tag).find((p) => p.args.includes('--address unix:'))!;
  return { child, socketFolder: path.dirname(/--address unix:(\S+)/.exec(python.args)![1]!) };
}

function killLeftovers(tag: string): void {
  for (const { pid } of processesIn(path.join(BROKEN, 'hang'), tag)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

describe('signals from the first instant (10, 11)', () => {
  it('Ctrl-C before the first spawn exits 130', async () => {
    const child = startDrift(['render', '-p', 'gke', '-s', 'converge'], project.dir, { env: { DRIFT_TEST_PAUSE_BEFORE_SPAWN_MS: '60000' } });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await waitFor(() => stderr.includes('test pause before the first spawn'), 30_000, 'drift to reach its first spawn');
    child.kill('SIGINT');
    const run = await child;
    expect(run.exitCode, String(run.stderr)).toBe(130);
  });

  it('Ctrl-C during the first call exits 130 with the function group and its socket folder gone', async () => {
    const tag = randomUUID();
    const { child, socketFolder } = await stuckDrift(tag);
    try {
      child.kill('SIGINT');
      const run = await child;
      expect(run.exitCode).toBe(130);
      await waitFor(() => processesIn(path.join(BROKEN, 'hang'), tag).length === 0 && !existsSync(socketFolder), 2_000, 'the function group and its socket folder to go');
    } finally {
      child.kill('SIGKILL');
      killLeftovers(tag);
    }
  });

  it('SIGKILL: the watchdog removes the socket folder first, before the grace a TERM-ignoring group gets', async () => {
    const tag = randomUUID();
    const { child, socketFolder } = await stuckDrift(tag);
    try {
      child.kill('SIGKILL');
      await child;
      const killed = Date.now();
      // The order, not a time: when the folder is first seen gone, the grandchild that ignores SIGTERM is
      // still in its grace (the old order removed the folder only after that grace, with the group gone).
      const groupAtRemoval = await waitFor(() => !existsSync(socketFolder) && [processesIn(path.join(BROKEN, 'hang'), tag)], 2_000, 'the socket folder to go');
      const folderMs = Date.now() - killed;
      await waitFor(() => processesIn(path.join(BROKEN, 'hang'), tag).length === 0, 3_000, 'the function group to go');
      console.log(`SIGKILL: socket folder gone ${folderMs} ms, function group ${Date.now() - killed} ms after drift died`);
      expect(groupAtRemoval[0]!.length).toBeGreaterThan(0);
    } finally {
      child.kill('SIGKILL');
      killLeftovers(tag);
    }
  });
});

describe('load-robust calls (11)', () => {
  it('a call that misses its deadline once is asked again with twice the deadline, and the render succeeds', async () => {
    const fn = 'providers/gke/function/fn.py';
    const slowOnce = (text: string) =>
      replaceExactly(
        text,
        '        rsp = response.to(req)\n',
        // The second call (the first step after the probe) is late by half a deadline, once.
        '        FunctionRunner.calls = getattr(FunctionRunner, "calls", 0) + 1\n        if FunctionRunner.calls == 2:\n            import asyncio\n            await asyncio.sleep(3)\n        rsp = response.to(req)\n',
      );
    writeFileSync(at('slow.config.yaml'), 'providers: providers/*/provider.yaml\nscenarios: scenarios/*.yaml\ntimeouts: {callMs: 2000}\n');
    const began = Date.now();
    const run = await withEdit(fn, slowOnce, () => runDrift(['--config', 'slow.config.yaml', 'render', '-p', 'gke', '-s', 'converge'], project.dir));
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toContain('kind: GKECluster');
    expect(run.stderr).not.toContain('timed out');
    expect(Date.now() - began).toBeGreaterThan(2000);
  });
});
