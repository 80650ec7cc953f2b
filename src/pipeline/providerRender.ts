import type { RunFunctionResponse } from '@crossplane-org/function-sdk-typescript';
import type { Adapter, Project } from '../config/types.js';
import { ProviderAnswers, requestHash } from '../functions/answerCache.js';
import { answerBytes, type Send } from '../functions/client.js';
import { encodeRequest } from '../functions/encode.js';
import { memoize } from '../functions/memo.js';
import { providerKey } from '../functions/answerKey.js';
import type { FunctionPool } from '../functions/pool.js';
import { FunctionProcess, machinePaths } from '../functions/process.js';
import { redactDeep, redactor, type Redact } from '../util/redact.js';
import { speedLayers } from '../util/speedLayers.js';
import { readResponse, rememberAnswer } from '../world/protocol.js';
import type { Caller } from '../world/simulate.js';
import type { ProviderCells } from './cellCache.js';
import { runCell, unstartedCell, type CellOptions, type CellResult, type ProviderSession } from './cell.js';
import type { OnEvent } from './events.js';
import type { ProviderRun, RunOptions } from './runTypes.js';
import { derivedFinder } from './twinRender.js';

/** A cell whose settled steps were replayed and every replay agreed: its answers may be cached. */
function agreed(cell: CellResult): boolean {
  return !cell.trace.error && !cell.nondeterministic && !cell.findings.some((finding) => finding.subject === 'determinism replay');
}

/** What run.ts found before rendering: where the caches are, the provider's key, its cached cells. */
export interface ProviderStart {
  folder: string | undefined;
  key: string | undefined;
  cellOptions: CellOptions;
  known: ProviderCells | undefined;
  /** The provider's key for a kept process (options.pool), also when the caches are off. */
  poolKey?: string | undefined;
}

/**
 * Renders a provider whose cells are not all cached: its function started at the first request the
 * answer cache cannot answer, every cell the cell cache misses simulated and analysed against it.
 * Loaded by run.ts only then, so a run of unchanged providers loads no gRPC, protobuf or simulator.
 */
export async function renderProvider(project: Project, adapter: Adapter, options: RunOptions, { folder, key, cellOptions, known, poolKey }: ProviderStart): Promise<{ provider: ProviderRun; cells: CellResult[] }> {
  const emit = options.onEvent ?? (() => {});
  const determinism = cellOptions.determinism;
  const cache = key === undefined ? undefined : ProviderAnswers.open(folder!, adapter, key);
  // Every answer and error of the function passes here, cached or live: what it says of drift's
  // secrets and this machine's paths is redacted before the simulation, the goldens or a report see it.
  const redact = redactor(project.env, machinePaths(adapter, project.env, project.config.root, project.config.roots));
  const fn = new LazyFunction(project, adapter, emit, redact, options.pool && poolKey !== undefined ? { pool: options.pool, key: poolKey } : undefined);
  // What this run's function answered, by answer: the request's hash and the answer's bytes, kept
  // for the cache once a cell that used the answer has shown its replays agree.
  const live = new WeakMap<RunFunctionResponse, { hash: string; bytes: Uint8Array }>();
  let hits = 0;
  const send = (replaying: boolean): Send => async (request) => {
    const bytes = request instanceof Uint8Array ? request : encodeRequest(request);
    const cached = cache?.get(bytes);
    if (cached) {
      hits += 1;
      return redacted(cached, redact);
    }
    const answer = redacted(await fn.call(bytes), redact);
    if (cache && !replaying) {
      const wire = answerBytes(answer);
      if (wire) live.set(answer, { hash: requestHash(bytes), bytes: wire });
    }
    return answer;
  };
  const call = memoize(send(false));
  // Answers of the provider's own analyses (the twin render), kept when every cell agreed.
  const shared = new Set<RunFunctionResponse>();
  const session: ProviderSession = { adapter, call, replay: memoize(send(true)), derived: derivedFinder(tracked(call, shared), adapter) };
  const fromCache = new Set<CellResult>();
  let cells: CellResult[];
  try {
    cells = await Promise.all(
      project.scenarios.map(async (scenario) => {
        const hit = known?.get(scenario);
        if (hit) {
          fromCache.add(hit);
          emit({ type: 'cell-rendered', provider: adapter.name, scenario: scenario.name, ms: 0, steps: hit.trace.steps.length });
          emit({ type: 'cell-done', provider: adapter.name, scenario: scenario.name });
          return hit;
        }
        const used = new Set<RunFunctionResponse>();
        const cell = await runCell({ ...session, call: tracked(call, used) }, scenario, cellOptions, (trace, ms) =>
          emit({ type: 'cell-rendered', provider: adapter.name, scenario: scenario.name, ms, steps: trace.steps.length }),
        );
        if (cache && determinism && agreed(cell)) for (const answer of used) keep(cache, live, answer);
        emit({ type: 'cell-done', provider: adapter.name, scenario: scenario.name });
        return cell;
      }),
    );
  } finally {
    await fn.stop();
  }
  const failed = fn.startError;
  if (failed !== undefined) {
    return { provider: { provider: adapter.name, startMs: fn.startMs, error: failed, calls: 0 }, cells: project.scenarios.map((scenario) => unstartedCell(adapter, scenario, failed)) };
  }
  if (cache && determinism && cells.every(agreed)) {
    for (const answer of shared) keep(cache, live, answer);
    // A cell with a finding of its own (an ablation that timed out, a probe that failed) is analysed again next time.
    if (known) project.scenarios.forEach((scenario, i) => cells[i]!.findings.length === 0 && !fromCache.has(cells[i]!) && known.add(scenario, cells[i]!));
  }
  cache?.save();
  known?.save();
  return { provider: { provider: adapter.name, startMs: fn.startMs, calls: fn.calls, ...(cache ? { cached: hits, cachedCells: fromCache.size } : {}) }, cells };
}

/** The response, its answer (what the world reads of it: readResponse) redacted. */
function redacted(response: RunFunctionResponse, redact: Redact): RunFunctionResponse {
  const wire = speedLayers().redactScan ? answerBytes(response) : undefined;
  if (wire && !redact.foundIn(wire)) return response;
  const answer = readResponse(response);
  const clean = redactDeep(answer, redact);
  if (clean !== answer) rememberAnswer(response, clean);
  return response;
}

/** The error with its message redacted, thrown on. */
function redactedError(error: unknown, redact: Redact): unknown {
  if (error instanceof Error) error.message = redact(error.message);
  return error;
}

function keep(cache: ProviderAnswers, live: WeakMap<RunFunctionResponse, { hash: string; bytes: Uint8Array }>, answer: RunFunctionResponse): void {
  const entry = live.get(answer);
  if (entry) cache.add(entry.hash, entry.bytes);
}

/** The caller, noting every answer it hands out in `used`. */
function tracked(call: Caller, used: Set<RunFunctionResponse>): Caller {
  return async (request) => {
    const answer = await call(request);
    used.add(answer);
    return answer;
  };
}

/**
 * The provider's function, started at the first request the cache cannot answer: an unchanged
 * provider starts no process. That first request is the start-up probe, and its answer is the
 * request's. A function that will not start fails every call with the reason, and the provider's
 * cells are then reported as never started, as before any rendering.
 */
class LazyFunction {
  private process: Promise<FunctionProcess> | undefined;
  private started: FunctionProcess | undefined;
  /** The calls a kept process had answered before this run took it. */
  private callsBefore = 0;
  /** A call failed (timed out, crashed, answered garbage): the process is not kept for the next run, which starts a fresh one. */
  private failed = false;
  /** This run's first request to the function: the start-up probe of a process started again for the pool. */
  private firstRequest: Uint8Array | undefined;
  startError: string | undefined;
  startMs = 0;

  constructor(
    private readonly project: Project,
    private readonly adapter: Adapter,
    private readonly emit: OnEvent,
    private readonly redact: Redact,
    private readonly kept?: { pool: FunctionPool; key: string },
  ) {}

  get calls(): number {
    return (this.started?.calls ?? 0) - this.callsBefore;
  }

  async call(bytes: Uint8Array): Promise<RunFunctionResponse> {
    try {
      if (!this.process) {
        this.process = this.warmOrStart(bytes);
        const fn = await this.process;
        const probed = fn.probed;
        if (probed && probed.request === bytes) return probed.response;
        return await fn.call(bytes);
      }
      return await (await this.process).call(bytes);
    } catch (error) {
      this.failed = true;
      throw redactedError(error, this.redact);
    }
  }

  /** The process kept from an earlier run of the same code (drift mcp), else a new one. */
  private async warmOrStart(probe: Uint8Array): Promise<FunctionProcess> {
    this.firstRequest = probe;
    const warm = this.kept && (await this.kept.pool.take(this.adapter.name, this.kept.key));
    if (!warm) return this.start(probe);
    this.started = warm;
    this.callsBefore = warm.calls;
    this.emit({ type: 'provider-started', provider: this.adapter.name, ms: 0 });
    return warm;
  }

  private startOptions(probe: Uint8Array) {
    return { startMs: this.project.config.timeouts.startMs, callMs: this.project.config.timeouts.callMs, env: this.project.env, probe };
  }

  private async start(probe: Uint8Array): Promise<FunctionProcess> {
    const began = performance.now();
    try {
      this.started = await FunctionProcess.start(this.adapter, this.startOptions(probe));
    } catch (error) {
      this.startError = this.redact((error as Error).message);
      this.startMs = performance.now() - began;
      this.emit({ type: 'provider-failed', provider: this.adapter.name, ms: this.startMs, error: this.startError });
      throw error;
    }
    this.startMs = performance.now() - began;
    this.emit({ type: 'provider-started', provider: this.adapter.name, ms: this.startMs });
    return this.started;
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    if (this.kept && !this.failed) {
      const { adapter, project, firstRequest } = this;
      // Started again with this run's first request as its probe when an edit changes the key while it waits.
      const restart = firstRequest && { folder: adapter.function.cwd, rekey: () => providerKey(adapter, project.env), start: () => FunctionProcess.start(adapter, this.startOptions(firstRequest)) };
      await this.kept.pool.keep(adapter.name, this.kept.key, this.started, restart);
    } else await this.started.stop();
    this.emit({ type: 'provider-stopped', provider: this.adapter.name, calls: this.calls });
  }
}
