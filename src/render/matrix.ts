import pLimit from 'p-limit';
import type { Adapter, Project, Scenario } from '../config/types.js';
import type { RunFunctionRequest } from '@crossplane-org/function-sdk-typescript';
import { buildRequest, type Answer } from '../world/protocol.js';
import { simulate, type Caller, type SimulateOptions } from '../world/simulate.js';
import type { Trace } from '../world/trace.js';
import { buildXR } from '../world/xr.js';
import { compareText } from '../util/objects.js';
import type { Send } from './client.js';
import { memoize } from './memo.js';
import { FunctionProcess } from './process.js';

export interface ProviderStart {
  provider: string;
  /** Wall time from spawn to the first answered call. */
  ms: number;
  error?: string;
}

export interface Progress {
  provider: string;
  phase: 'starting' | 'rendering' | 'analyzing' | 'done' | 'failed';
  done: number;
  total: number;
}

export interface MatrixOptions {
  onProgress?: (progress: Progress) => void;
  /** Sees every step's final request and answer of the main renders, by `provider/scenario`. */
  onStep?: (cell: string, step: number, request: RunFunctionRequest, answer: Answer) => void;
  /**
   * Extra work on each cell as soon as it has rendered, while the process is up (gating analysis,
   * determinism replays). `call` answers repeated requests from memory; `replay` always reaches the
   * function the first time it sees a request (determinism must), and is shared by the provider's cells.
   */
  withCell?: (adapter: Adapter, callers: { call: Caller; replay: Caller }, trace: Trace) => Promise<void>;
  /** Receives each provider's traces once it is done with them (its cells failed ones if it never started). */
  onTraces?: (adapter: Adapter, traces: Trace[]) => void;
}

export interface RenderTiming {
  provider: string;
  scenario: string;
  ms: number;
  steps: number;
}

export interface MatrixResult {
  starts: ProviderStart[];
  traces: Trace[];
  /** Wall time of each provider × scenario simulation (calls to one process overlap). */
  timings: RenderTiming[];
  calls: number;
}

/** A provider's cells when its function would not start: every one fails with the reason. */
function failedTraces(adapter: Adapter, scenarios: Scenario[], error: string): Trace[] {
  return scenarios.map((scenario) => ({
    provider: adapter.name,
    scenario: scenario.name,
    xr: { name: scenario.xr.name, namespace: scenario.xr.namespace, uid: '' },
    steps: [],
    converged: null,
    perturbations: [],
    error,
  }));
}

export function simulateOptions(project: Project): SimulateOptions {
  return { maxSteps: project.config.maxSteps };
}

/**
 * Runs each provider's function once: start it, simulate every scenario against it with concurrent
 * calls, stop it. `concurrency` bounds how many functions run at once, so memory and CPU stay bounded
 * however many providers there are. A provider that fails never hides the others: its cells carry
 * the error, the rest render.
 */
export async function runMatrix(project: Project, options: MatrixOptions = {}): Promise<MatrixResult> {
  const limit = pLimit(project.config.concurrency);
  const result: MatrixResult = { starts: [], traces: [], timings: [], calls: 0 };
  await Promise.all(
    project.adapters.map((adapter) =>
      limit(async () => {
        const report = (phase: Progress['phase'], done: number) =>
          options.onProgress?.({ provider: adapter.name, phase, done, total: project.scenarios.length });
        report('starting', 0);
        const began = performance.now();
        let fn: FunctionProcess;
        try {
          fn = await FunctionProcess.start(adapter, {
            startMs: project.config.timeouts.startMs,
            callMs: project.config.timeouts.callMs,
            probe: buildRequest(buildXR(adapter, project.scenarios[0]!), new Map(), undefined),
          });
        } catch (error) {
          const message = (error as Error).message;
          result.starts.push({ provider: adapter.name, ms: performance.now() - began, error: message });
          const failed = failedTraces(adapter, project.scenarios, message);
          result.traces.push(...failed);
          options.onTraces?.(adapter, failed);
          report('failed', 0);
          return;
        }
        result.starts.push({ provider: adapter.name, ms: performance.now() - began });
        try {
          await renderProvider(project, adapter, fn, result, options, report);
        } finally {
          result.calls += fn.calls;
          await fn.stop();
        }
      }),
    ),
  );
  result.traces.sort((a, b) => compareText(a.provider, b.provider) || compareText(a.scenario, b.scenario));
  result.starts.sort((a, b) => compareText(a.provider, b.provider));
  result.timings.sort((a, b) => compareText(a.provider, b.provider) || compareText(a.scenario, b.scenario));
  return result;
}

/** Every scenario against one started function (concurrent calls), each cell followed at once by its extra work. */
async function renderProvider(
  project: Project,
  adapter: Adapter,
  fn: FunctionProcess,
  result: MatrixResult,
  options: MatrixOptions,
  report: (phase: Progress['phase'], done: number) => void,
): Promise<void> {
  const fresh: Send = (request) => fn.call(request);
  const callers = { call: memoize(fresh, fn.probed), replay: memoize(fresh) };
  let done = 0;
  report('rendering', 0);
  const own = await Promise.all(
    project.scenarios.map(async (scenario) => {
      const began = performance.now();
      const onStep = options.onStep;
      const trace = await simulate(callers.call, adapter, scenario, {
        ...simulateOptions(project),
        ...(onStep ? { onStep: (step: number, request: RunFunctionRequest, answer: Answer) => onStep(`${adapter.name}/${scenario.name}`, step, request, answer) } : {}),
      });
      result.timings.push({ provider: adapter.name, scenario: scenario.name, ms: performance.now() - began, steps: trace.steps.length });
      done += 1;
      report(done === project.scenarios.length && options.withCell ? 'analyzing' : 'rendering', done);
      await options.withCell?.(adapter, callers, trace);
      return trace;
    }),
  );
  result.traces.push(...own);
  options.onTraces?.(adapter, own);
  report('done', done);
}
