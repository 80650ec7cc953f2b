/**
 * drift mcp's kept function processes (functions/pool.ts) over the real pipeline and real Python
 * functions: the MCP tools in this process on a copy of the project, caches off so every diff
 * renders. A process is kept while the provider's key holds, replaced when its sources, its
 * interpreter's environment or its adapter's env change, and stopped when idle; the server leaves
 * none behind when its client goes (the reaper, through the real `drift mcp`).
 */
import { appendFileSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { DriftTools } from '../../src/mcp/tools.js';
import { LOCAL_POLICY } from '../../src/util/ci.js';
import { driftBin } from '../helpers/drift.js';
import { processesIn, waitFor } from '../helpers/processes.js';
import { brokenAdapter, copyProject, linkedVenv, REPO, tempProject, type ProjectCopy } from '../helpers/project.js';

const SLOW = 240_000;

const alive = (pid: number | undefined) => {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The environment the functions run in: this one's, CI aside (the tools' policy is given). */
function environment(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (name !== 'CI' && value !== undefined) env[name] = value;
  return { ...env, ...extra };
}

describe('drift mcp keeping function processes', () => {
  let copy: ProjectCopy | undefined;
  let tools: DriftTools | undefined;
  afterEach(async () => {
    await tools?.close();
    copy?.remove();
    tools = undefined;
    copy = undefined;
  });

  const open = (keepFunctionsMs = 60_000) => {
    copy = copyProject({ prefix: 'drift-warm-' });
    tools = new DriftTools({ config: undefined, cwd: copy.dir, env: environment(), policy: LOCAL_POLICY, cache: { enabled: false, folder: path.join(copy.dir, '.cache') }, deadlineMs: SLOW, keepFunctionsMs });
    return { dir: copy.dir, tools };
  };
  const diffGke = async (tools: DriftTools) => {
    const answer = await tools.diff({ provider: 'gke', scenario: ['converge'] });
    // Rendered, every function up (an edit may well raise a finding: not what these tests judge).
    expect((answer.summary as { rendered: string[]; errors?: string[] }).errors).toBeUndefined();
    expect((answer.summary as { rendered: string[] }).rendered).toEqual(['gke']);
    return tools.pool!.pid('gke');
  };

  it(
    'keeps the process between diffs of an unchanged tree, and replaces it as soon as a source file changes',
    async () => {
      const { dir, tools } = open();
      const first = await diffGke(tools);
      expect(alive(first)).toBe(true);
      expect(await diffGke(tools)).toBe(first);
      appendFileSync(path.join(dir, 'providers/gke/function/composer.py'), '# an edit\n');
      // Replaced while it waits, before any call: the next diff finds the edited code running.
      let second: number | undefined;
      for (const deadline = Date.now() + 30_000; Date.now() < deadline && !(second !== first && alive(second)); ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        second = await tools.pool!.pid('gke');
      }
      expect(second).not.toBe(first);
      expect(alive(second)).toBe(true);
      await waitFor(() => !alive(first), 10_000, 'the first gke process to stop');
      expect(await diffGke(tools)).toBe(second);
    },
    SLOW,
  );

  it(
    "replaces it when the interpreter's environment changes (a package installed) or the adapter's env does",
    async () => {
      const { dir, tools } = open();
      // A virtual environment of the copy's own, so a package can be "installed" into it.
      const { site } = linkedVenv(path.join(dir, 'venv'));
      rmSync(path.join(dir, '.venv'));
      symlinkSync(path.join(dir, 'venv'), path.join(dir, '.venv'));
      const first = await diffGke(tools);
      expect(await diffGke(tools)).toBe(first);
      writeFileSync(path.join(site, 'installed.py'), 'VALUE = 1\n');
      const second = await diffGke(tools);
      expect(second).not.toBe(first);
      expect(alive(first)).toBe(false);
      const adapter = path.join(dir, 'providers/gke/provider.yaml');
      writeFileSync(adapter, readFileSync(adapter, 'utf8').replace('  cwd: .\n', '  cwd: .\n  env: {DRIFT_WARM_TEST: "1"}\n'));
      const third = await diffGke(tools);
      expect(third).not.toBe(second);
      expect(alive(second)).toBe(false);
      expect(alive(third)).toBe(true);
    },
    SLOW,
  );

  it(
    'stops a process left idle past its time',
    async () => {
      const { tools } = open(500);
      const pid = await diffGke(tools);
      expect(alive(pid)).toBe(true);
      await waitFor(() => !alive(pid), 10_000, 'the idle gke process to stop');
      expect(tools.pool!.providers).toEqual([]);
    },
    SLOW,
  );
});

describe('drift mcp keeping a function whose call failed', () => {
  it(
    'keeps none: the next call starts a fresh process',
    async () => {
      const project = tempProject({ providers: brokenAdapter('garbage'), scenarios: path.join(REPO, 'scenarios/converge.yaml') });
      const tools = new DriftTools({ config: undefined, cwd: project.dir, env: environment(), policy: LOCAL_POLICY, cache: { enabled: false, folder: path.join(project.dir, '.cache') }, deadlineMs: SLOW, keepFunctionsMs: 60_000 });
      try {
        await tools.render({ provider: 'garbage', scenario: 'converge' }).catch(() => undefined);
        expect(tools.pool!.providers).toEqual([]);
      } finally {
        await tools.close();
        project.remove();
      }
    },
    SLOW,
  );
});

describe('drift mcp with kept processes, its client gone', () => {
  it(
    'leaves no function process behind',
    async () => {
      const copy = copyProject({ prefix: 'drift-warm-exit-' });
      const tag = 'warm-pool-exit-test';
      const transport = new StdioClientTransport({ command: process.execPath, args: [driftBin(), '--no-cache', 'mcp'], cwd: copy.dir, env: environment({ DRIFT_TEST_TAG: tag, NO_COLOR: '1' }), stderr: 'pipe' });
      const client = new Client({ name: 'drift-test', version: '0' });
      try {
        await client.connect(transport);
        const server = transport.pid!;
        const answer = (await client.callTool({ name: 'diff', arguments: { provider: 'gke', scenario: ['converge'] } }, undefined, { timeout: SLOW })) as { isError?: boolean };
        expect(answer.isError).toBeFalsy();
        // The call is answered and gke's function is still up, kept for the next call.
        const kept = processesIn(copy.dir, tag).filter((p) => p.pid !== server);
        expect(kept.length).toBeGreaterThan(0);
        await client.close();
        await waitFor(() => !processesIn(copy.dir, tag).length, 10_000, 'drift mcp and its kept functions to exit');
        for (const { pid } of kept) expect(alive(pid)).toBe(false);
      } finally {
        await client.close().catch(() => undefined);
        copy.remove();
      }
    },
    SLOW,
  );
});
