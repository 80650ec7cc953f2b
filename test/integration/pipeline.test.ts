/**
 * The cell pipeline and the run over the real gke function: a cell is a value, the provider's
 * request memo is what makes scenarios share their first steps, and the run reports itself through
 * one ordered event stream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunFunctionRequest } from '@crossplane-org/function-sdk-typescript';
import { loadProject, selectProject } from '../../src/config/load.js';
import type { Adapter, Project, Scenario } from '../../src/config/types.js';
import { runCell, type CellOptions, type ProviderSession } from '../../src/pipeline/cell.js';
import type { RunEvent } from '../../src/pipeline/events.js';
import { runProject } from '../../src/pipeline/run.js';
import { encodeRequest } from '../../src/functions/encode.js';
import { memoize } from '../../src/functions/memo.js';
import { FunctionProcess } from '../../src/functions/process.js';
import { buildRequest } from '../../src/world/protocol.js';
import { buildXR } from '../../src/world/xr.js';
import { REPO } from '../helpers/project.js';

let project: Project;
let adapter: Adapter;
let fn: FunctionProcess;
const scenario = (name: string): Scenario => project.scenarios.find((s) => s.name === name)!;

beforeAll(async () => {
  project = selectProject(await loadProject(undefined, REPO, process.env), ['gke'], ['converge', 'credentials-lost']);
  adapter = project.adapters[0]!;
  fn = await FunctionProcess.start(adapter, { ...project.config.timeouts, probe: buildRequest(buildXR(adapter, scenario('converge')), new Map(), undefined), env: process.env });
});

afterAll(() => fn?.stop());

/** A session over the running function whose callers count what reaches it. */
function countingSession(): { session: ProviderSession; sent: () => number } {
  let sent = 0;
  const send = (request: RunFunctionRequest | Uint8Array) => {
    sent += 1;
    return fn.call(request instanceof Uint8Array ? request : encodeRequest(request));
  };
  return { session: { adapter, call: memoize(send), replay: memoize(send) }, sent: () => sent };
}

const options: CellOptions = { maxSteps: 8, determinism: true, gating: true };

describe('runCell', () => {
  it('returns the whole cell as a value, unjudged: trace, determinism verdict, gates, skeleton, no findings when nothing failed', async () => {
    const { session } = countingSession();
    const cell = await runCell(session, scenario('converge'), options);
    expect(cell.provider).toBe('gke');
    expect(cell.scenario).toBe('converge');
    expect(cell.trace.error).toBeUndefined();
    expect(cell.nondeterministic).toBeUndefined();
    // converge is ablated: the node pool cannot appear before the cluster exists.
    expect(cell.gates!['nodepool-gpu']).toContain('cluster.exists');
    expect(cell.skeleton.resources['nodepool-gpu']!.gatedOn).toEqual(cell.gates!['nodepool-gpu']);
    expect(cell.findings).toEqual([]);
  });

  it('a scenario sharing its first steps with one already run costs only the calls where it differs, through the same memo', async () => {
    const shared = countingSession();
    await runCell(shared.session, scenario('converge'), { ...options, gating: false });
    const afterConverge = shared.sent();
    await runCell(shared.session, scenario('credentials-lost'), { ...options, gating: false });
    const incremental = shared.sent() - afterConverge;
    const alone = countingSession();
    const cell = await runCell(alone.session, scenario('credentials-lost'), { ...options, gating: false });
    expect(cell.trace.error).toBeUndefined();
    expect(incremental).toBeGreaterThan(0);
    expect(incremental).toBeLessThan(alone.sent());
  });

  it('gating ablations and intent probes reuse the baseline answers: the memo saves a good part of their calls', async () => {
    const memo = countingSession();
    let unmemoized = 0;
    const everyCall: ProviderSession = {
      adapter,
      call: (request) => {
        unmemoized += 1;
        return fn.call(request);
      },
      replay: memoize((request) => fn.call(request)),
    };
    const a = await runCell(memo.session, scenario('converge'), { ...options, determinism: false });
    const b = await runCell(everyCall, scenario('converge'), { ...options, determinism: false });
    expect(a.gates).toEqual(b.gates);
    expect(a.coverage).toEqual(b.coverage);
    // Ablations share the baseline's steps until the withheld fact would show; intent probes change
    // the XR, so they share less. Together, at least a quarter of the calls never reach the function.
    expect(memo.sent()).toBeLessThan(unmemoized * 0.75);
  });
});

describe('runProject', () => {
  it('reports one ordered event stream per provider and returns cells in matrix order', async () => {
    const events: RunEvent[] = [];
    const run = await runProject(project, { gating: false, onEvent: (event) => events.push(event) });
    expect(run.cells.map((cell) => `${cell.provider}/${cell.scenario}`)).toEqual(['gke/converge', 'gke/credentials-lost']);
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('provider-starting');
    expect(types[1]).toBe('provider-started');
    expect(types.at(-1)).toBe('provider-stopped');
    expect(types.filter((type) => type === 'cell-rendered')).toHaveLength(2);
    for (const name of ['converge', 'credentials-lost']) {
      const rendered = types.findIndex((type, i) => type === 'cell-rendered' && (events[i] as { scenario: string }).scenario === name);
      const done = types.findIndex((type, i) => type === 'cell-done' && (events[i] as { scenario: string }).scenario === name);
      expect(rendered).toBeGreaterThan(1);
      expect(done).toBeGreaterThan(rendered);
    }
    const stopped = events.at(-1) as Extract<RunEvent, { type: 'provider-stopped' }>;
    expect(stopped.calls).toBe(run.calls);
    expect(run.providers).toEqual([{ provider: 'gke', startMs: expect.any(Number), calls: run.calls }]);
  });
});
