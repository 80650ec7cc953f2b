/**
 * drift as a user runs it: the built binary, its output, its exit codes, and Ctrl-C. The binary is
 * compiled from the current sources once per test run, into a private folder (test/global-setup.ts).
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Result } from 'execa';
import { isMap, parseAllDocuments, type Document } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDrift, startDrift, type DriftRun } from '../helpers/drift.js';
import { BROKEN, brokenAdapter, bundledProviders, REPO, tempDir, tempProject, writeFiles } from '../helpers/project.js';
import { processesIn, waitFor, within } from '../helpers/processes.js';

const cleanups: Array<() => void> = [];
afterAll(() => cleanups.forEach((remove) => remove()));


/** drift in-process, its output as a process's would be read: the final newline stripped. */
async function drift(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<DriftRun> {
  const run = await runDrift(args, options.cwd ?? REPO, options.env);
  const strip = (text: string) => text.replace(/\n$/, '');
  return { ...run, stdout: strip(run.stdout), stderr: strip(run.stderr) };
}

interface Rendered {
  docs: Array<Record<string, unknown> & { kind: string }>;
  comments: string[];
}

function parseStream(stdout: string): Rendered {
  const documents = parseAllDocuments(stdout);
  expect(Array.isArray(documents), 'stdout is a YAML stream').toBe(true);
  const list = documents as Document.Parsed[];
  for (const doc of list) expect(doc.errors, 'YAML errors').toEqual([]);
  for (const doc of list) expect(isMap(doc.contents)).toBe(true);
  return {
    docs: list.map((doc) => doc.toJS() as Rendered['docs'][number]),
    comments: list.map((doc) => doc.commentBefore ?? doc.contents?.commentBefore ?? ''),
  };
}

/** Splits a rendered stream into steps: each step ends with its Step document. */
function steps(docs: Rendered['docs']): Array<Rendered['docs']> {
  const out: Array<Rendered['docs']> = [];
  let current: Rendered['docs'] = [];
  for (const doc of docs) {
    current.push(doc);
    if (doc.kind === 'Step') {
      out.push(current);
      current = [];
    }
  }
  expect(current, 'documents after the last Step').toEqual([]);
  return out;
}

const RESOURCE_NAME = 'crossplane.io/composition-resource-name';
const keyOf = (doc: Record<string, unknown>) =>
  ((doc.metadata as { annotations?: Record<string, string> } | undefined)?.annotations ?? {})[RESOURCE_NAME];

describe.concurrent('drift list', () => {
  it('lists the bundled providers and ten scenarios', async () => {
    const run = await drift(['list']);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe('');
    const lines = run.stdout.split('\n');
    const providers = lines.slice(lines.indexOf('providers:') + 1, lines.indexOf('scenarios:'));
    const scenarios = lines.slice(lines.indexOf('scenarios:') + 1);
    // Each adapter's name, its XR's kind and its file, as the adapters say them.
    const kindOf = (name: string) => /^ {2}kind: (\S+)$/m.exec(readFileSync(path.join(REPO, 'providers', name, 'provider.yaml'), 'utf8'))![1]!;
    expect(providers.map((line) => line.trim().split(/\s+/))).toEqual(bundledProviders().map((name) => [name, kindOf(name), `providers/${name}/provider.yaml`]));
    expect(providers.map((line) => line.trim().split(/\s+/)[1])).toEqual(expect.arrayContaining(['AKSCluster', 'EKSCluster', 'GKECluster', 'NebiusCluster', 'VultrCluster']));
    expect(scenarios.map((line) => line.trim().split(/\s+/)[0])).toEqual([
      'cluster-lost',
      'cluster-regresses',
      'converge',
      'credentials-broken',
      'credentials-lost',
      'credentials-missing',
      'custom-credentials',
      'fact-withdrawn',
      'never-ready',
      'two-pools',
    ]);
    expect(run.stdout).toContain('One GPU pool; everything the function composes becomes Ready.');
  });
});

describe.concurrent('drift render', () => {
  let allSteps: DriftRun;
  let rendered: Rendered;

  beforeAll(async () => {
    allSteps = await drift(['render', '--provider', 'gke', '--scenario', 'converge', '--all-steps']);
    rendered = parseStream(allSteps.stdout);
  });

  it('prints every step as a --- separated YAML stream and a summary on stderr', () => {
    expect(allSteps.exitCode, allSteps.stderr).toBe(0);
    expect(allSteps.stdout.startsWith('---\n')).toBe(true);
    const byStep = steps(rendered.docs);
    expect(byStep.length).toBeGreaterThanOrEqual(2);
    expect(byStep.map((s) => s.at(-1)!.step)).toEqual(byStep.map((_, i) => i));
    expect(allSteps.stderr).toMatch(new RegExp(`^# gke/converge: ${byStep.length} steps, converged at step \\d+, XR Ready \\(Crossplane v\\d+\\.\\d+ semantics\\)$`));
  });

  it('ends with a Step whose XR is Ready and whose composed resources are all READY_TRUE', () => {
    const last = steps(rendered.docs).at(-1)!;
    const step = last.at(-1)! as { kind: string; xrReady: boolean; ready: Record<string, string>; dropped: string[] };
    expect(step.kind).toBe('Step');
    expect(step.xrReady).toBe(true);
    expect(step.dropped).toEqual([]);
    const composed = last.filter((doc) => keyOf(doc) !== undefined);
    expect(Object.keys(step.ready).sort()).toEqual(composed.map(keyOf).sort());
    expect(Object.keys(step.ready).length).toBeGreaterThan(5);
    expect(Object.values(step.ready).every((mark) => mark === 'READY_TRUE'), JSON.stringify(step.ready)).toBe(true);
    // The XR comes first, with its derived Ready condition.
    const xr = last[0]! as { kind: string; status: { conditions: Array<{ type: string; status: string }> } };
    expect(xr.kind).toBe('GKECluster');
    expect(xr.status.conditions).toContainEqual(expect.objectContaining({ type: 'Ready', status: 'True' }));
  });

  it('annotates every composed resource with its key and sorts resources by key within a step', () => {
    for (const step of steps(rendered.docs)) {
      const [xr, ...rest] = step;
      expect(keyOf(xr!)).toBeUndefined();
      const composed = rest.filter((doc) => doc.kind !== 'Step' && doc.kind !== 'Result');
      expect(composed.length).toBeGreaterThan(0);
      const keys = composed.map(keyOf);
      expect(keys.every((key) => typeof key === 'string' && key.length > 0)).toBe(true);
      expect(keys).toEqual([...keys].sort());
      expect(new Set(keys).size).toBe(keys.length);
      // Each composed resource carries its observed name: one the function chose, or Crossplane's
      // generated <xr>-<12 hex of sha256(xr uid + key)>.
      const uid = (xr!.metadata as { uid: string }).uid;
      const generated = (key: string) => `demo-${createHash('sha256').update(uid + key).digest('hex').slice(0, 12)}`;
      for (const doc of composed) {
        const name = (doc.metadata as { name?: string }).name;
        expect(name).toMatch(/^demo(-[a-z0-9-]+)?$/);
        if (/^demo-[0-9a-f]{12}$/.test(name!)) expect(name).toBe(generated(keyOf(doc)!));
      }
      for (const key of ['cluster', 'network'].filter((k) => keys.includes(k))) {
        expect((composed.find((doc) => keyOf(doc) === key)!.metadata as { name: string }).name).toBe(generated(key));
      }
    }
  });

  it("marks each composed document with the readiness its step's Step document reports", () => {
    let pending: Array<{ key: string; comment: string }> = [];
    let checked = 0;
    rendered.docs.forEach((doc, i) => {
      const key = keyOf(doc);
      if (key !== undefined) pending.push({ key, comment: rendered.comments[i]!.trim() });
      if (doc.kind === 'Step') {
        const ready = doc.ready as Record<string, string>;
        expect(pending.map((p) => p.comment)).toEqual(pending.map((p) => `${p.key}: ${ready[p.key]}`));
        checked += pending.length;
        pending = [];
      }
    });
    expect(checked).toBeGreaterThan(10);
    // The XR's own document says which step it is.
    expect(rendered.comments[0]!.trim()).toBe('step 0 (converge): the XR as observed after this step');
  });

  it('prints only the last step by default, the same as the last of --all-steps', async () => {
    const run = await drift(['render', '-p', 'gke', '-s', 'converge']);
    expect(run.exitCode, run.stderr).toBe(0);
    const only = parseStream(run.stdout).docs;
    expect(steps(only)).toHaveLength(1);
    expect(only).toEqual(steps(rendered.docs).at(-1));
  });

  it('rejects a step that does not exist with exit code 2 and the valid range', async () => {
    const run = await drift(['render', '-p', 'gke', '-s', 'converge', '--step', '99']);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^drift: gke\/converge has steps 0 to \d+; there is no step 99$/);
  });

  it('rejects a step that is not a number', async () => {
    const run = await drift(['render', '-p', 'gke', '-s', 'converge', '--step', 'last']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('a step is a whole number from 0');
  });

  it('rejects an unknown provider with exit code 2, naming the known ones', async () => {
    const run = await drift(['render', '--provider', 'ibm', '--scenario', 'converge']);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`drift: no provider named "ibm"; known: ${bundledProviders().join(', ')}`);
  });

  it('rejects an unknown scenario with exit code 2, naming the known ones', async () => {
    const run = await drift(['render', '--provider', 'gke', '--scenario', 'nope']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('no scenario named "nope"; known: cluster-lost, cluster-regresses, converge,');
  });

  it('rejects a bad config with exit code 2 and file:line:col', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const file = writeFiles(dir, { 'drift.config.yaml': 'providers: providers/*/provider.yaml\nscenarioz: scenarios/*.yaml\n' })['drift.config.yaml']!;
    // Found in the working folder ...
    const found = await drift(['list'], { cwd: dir });
    expect(found.exitCode).toBe(2);
    expect(found.stdout).toBe('');
    expect(found.stderr).toBe(`drift: ${file}:2:1: unknown key "scenarioz" in the document; remove it or check its spelling`);
    // ... or named with --config.
    const named = await drift(['--config', file, 'render', '-p', 'gke', '-s', 'converge']);
    expect(named.exitCode).toBe(2);
    expect(named.stderr).toContain(`${file}:2:1: unknown key "scenarioz"`);
  });

  it('rejects a --config that is a folder with exit code 2 and a clear message, no stack trace', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const run = await drift(['--config', dir, 'list']);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`drift: ${dir}: is a folder, not a config file; pass the path of a drift.config.yaml`);
  });

  it('rejects diff --output into a missing folder before rendering anything, with exit code 2', async () => {
    // The crash provider would add its own start error to stderr if drift rendered before checking.
    const project = tempProject({ providers: brokenAdapter('crash'), scenarios: path.join(REPO, 'scenarios/converge.yaml') });
    cleanups.push(project.remove);
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const output = path.join(dir, 'missing', 'report.md');
    const run = await drift(['--config', project.configFile, 'diff', '--format', 'markdown', '--output', output]);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`drift: --output ${output}: the folder ${path.dirname(output)} does not exist; create it or write the report elsewhere`);
    expect(existsSync(path.dirname(output))).toBe(false);
  });

  it('rejects a missing --config file with exit code 2', async () => {
    const run = await drift(['--config', 'no/such/drift.config.yaml', 'list']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('no/such/drift.config.yaml: no such config file');
  });
});

describe('Ctrl-C', () => {
  it('stops drift with code 130 and leaves no function process behind', async () => {
    const project = tempProject({
      providers: brokenAdapter('hang'),
      scenarios: path.join(REPO, 'scenarios/converge.yaml'),
      timeouts: { startMs: 120_000, callMs: 120_000 },
    });
    cleanups.push(project.remove);
    const tag = randomUUID();
    const hangDir = path.join(BROKEN, 'hang');
    const child = startDrift(['--config', project.configFile, 'render', '-p', 'hang', '-s', 'converge'], REPO, { env: { DRIFT_TEST_TAG: tag } });
    try {
      // The hang function is up and drift is stuck waiting for its answer.
      let exited: Result<{ reject: false }> | undefined;
      void child.then((result) => (exited = result));
      await waitFor(() => exited !== undefined || processesIn(hangDir, tag).length > 0, 30_000, 'the hang fixture to start');
      if (exited) throw new Error(`drift exited (${exited.exitCode}) before its function hung:\n${exited.stderr}`);
      const running = processesIn(hangDir, tag);
      expect(running).toHaveLength(1);
      expect(running[0]!.cwd).toBe(hangDir);
      // The private folder drift made for the function's socket: Ctrl-C must remove it too.
      const socketFolder = path.dirname(/--address unix:(\S+)/.exec(running[0]!.args)![1]!);
      expect(existsSync(socketFolder)).toBe(true);
      child.kill('SIGINT');
      const run = await within(child, 10_000, 'drift to exit on SIGINT');
      expect(run.exitCode).toBe(130);
      // The group is signalled before drift exits and reaped just after: wait for it, do not look once.
      await waitFor(() => processesIn(hangDir, tag).length === 0 && !existsSync(socketFolder), 2_000, 'the function group and its socket folder to go');
    } finally {
      // Never leave a stuck drift (or its function) behind if an assertion failed above.
      child.kill('SIGKILL');
      for (const { pid } of processesIn(hangDir, tag)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
    }
  });
});
