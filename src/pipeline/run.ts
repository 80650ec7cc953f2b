import pLimit from 'p-limit';
import type { Adapter, Project } from '../config/types.js';
import type { Send } from '../functions/client.js';
import { memoize } from '../functions/memo.js';
import { FunctionProcess } from '../functions/process.js';
import { compareText } from '../util/objects.js';
import { buildRequest } from '../world/protocol.js';
import { buildXR } from '../world/xr.js';
import { runCell, unstartedCell, type CellJudge, type CellResult, type ProviderSession } from './cell.js';
import { derivedFinder } from './twinRender.js';
import type { OnEvent } from './events.js';

export interface RunOptions {
  /** Replay the settled steps of every cell and report any answer that differs (default true). */
  determinism?: boolean;
  /** Run the gating analysis on scenarios marked `ablate` (default true). */
  gating?: boolean;
  /** Judges each cell as soon as it is built, while other providers still render. */
  judge?: CellJudge;
  onEvent?: OnEvent;
}

export interface ProviderRun {
  provider: string;
  /** Wall time from spawn to the first answered call (or to giving up). */
  startMs: number;
  /** Why the function would not start; its cells then carry the same error. */
  error?: string;
  /** RunFunction calls that reached the function, the start-up probe included. */
  calls: number;
}

export interface RunResult {
  providers: ProviderRun[];
  /** In matrix order (provider, scenario), whatever order they finished in. */
  cells: CellResult[];
  calls: number;
}

/**
 * Maps the cell pipeline over providers × scenarios. Each provider's function runs once: start it,
 * run every scenario's cell against it with concurrent calls, stop it. `concurrency` bounds how many
 * functions run at once, so memory and CPU stay bounded however many providers there are. A
 * provider that fails never hides the others: its cells carry the error, the rest render.
 */
export async function runProject(project: Project, options: RunOptions = {}): Promise<RunResult> {
  const limit = pLimit(project.config.concurrency);
  const runs = await Promise.all(project.adapters.map((adapter) => limit(() => runProvider(project, adapter, options))));
  const providers = runs.map((run) => run.provider).sort((a, b) => compareText(a.provider, b.provider));
  const cells = runs.flatMap((run) => run.cells).sort((a, b) => compareText(a.provider, b.provider) || compareText(a.scenario, b.scenario));
  return { providers, cells, calls: providers.reduce((sum, run) => sum + run.calls, 0) };
}

async function runProvider(project: Project, adapter: Adapter, options: RunOptions): Promise<{ provider: ProviderRun; cells: CellResult[] }> {
  const emit = options.onEvent ?? (() => {});
  emit({ type: 'provider-starting', provider: adapter.name, scenarios: project.scenarios.length });
  const began = performance.now();
  let fn: FunctionProcess;
  try {
    fn = await FunctionProcess.start(adapter, {
      startMs: project.config.timeouts.startMs,
      callMs: project.config.timeouts.callMs,
      env: project.env,
      // The first step of the first scenario: its answer seeds the memo, so the probe is not wasted.
      probe: buildRequest(buildXR(adapter, project.scenarios[0]!), new Map(), undefined),
    });
  } catch (error) {
    const message = (error as Error).message;
    const ms = performance.now() - began;
    emit({ type: 'provider-failed', provider: adapter.name, ms, error: message });
    return { provider: { provider: adapter.name, startMs: ms, error: message, calls: 0 }, cells: project.scenarios.map((scenario) => unstartedCell(adapter, scenario, message)) };
  }
  const startMs = performance.now() - began;
  emit({ type: 'provider-started', provider: adapter.name, ms: startMs });
  try {
    const fresh: Send = (request) => fn.call(request);
    const call = memoize(fresh, fn.probed);
    const session: ProviderSession = { adapter, call, replay: memoize(fresh), derived: derivedFinder(call, adapter) };
    const cellOptions = {
      maxSteps: project.config.maxSteps,
      determinism: options.determinism !== false,
      gating: options.gating !== false,
      ...(options.judge ? { judge: options.judge } : {}),
    };
    const cells = await Promise.all(
      project.scenarios.map(async (scenario) => {
        const cell = await runCell(session, scenario, cellOptions, (trace, ms) =>
          emit({ type: 'cell-rendered', provider: adapter.name, scenario: scenario.name, ms, steps: trace.steps.length }),
        );
        emit({ type: 'cell-done', provider: adapter.name, scenario: scenario.name });
        return cell;
      }),
    );
    return { provider: { provider: adapter.name, startMs, calls: fn.calls }, cells };
  } finally {
    await fn.stop();
    emit({ type: 'provider-stopped', provider: adapter.name, calls: fn.calls });
  }
}
