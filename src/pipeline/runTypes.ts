import type { FunctionPool } from '../functions/pool.js';
import type { ProbeStart } from './coverageProbes.js';
import type { OnEvent } from './events.js';

/** What runProject (run.ts) is asked and tells of each provider; apart, so the renderer it loads lazily (providerRender.ts) shares them without a cycle. */

export interface RunOptions {
  /** Replay the settled steps of every cell and report any answer that differs (default true). */
  determinism?: boolean;
  /** Run the gating analysis on scenarios marked `ablate` (default true). */
  gating?: boolean;
  onEvent?: OnEvent;
  /** Where intent probes start (coverageProbes.ts): default the converged world, else DRIFT_PROBES. */
  probes?: ProbeStart;
  /**
   * Take whole cells from the cell cache (cellCache.ts) when it holds them (default true). false
   * analyses every cell from its answers (replayed or live) and keeps none: what a test of the
   * analysis itself needs, since a cached cell would only replay an earlier run's analysis.
   */
  reuseCells?: boolean;
  /** `drift mcp`'s kept function processes (functions/pool.ts): a provider's process is taken from it and put back, not started and stopped. */
  pool?: FunctionPool;
  /** Providers' answer keys (providerKey) this run already made, by name (the verdict's key, pipeline/diffVerdict.ts): not made twice. */
  keys?: ReadonlyMap<string, string | undefined>;
}

export interface ProviderRun {
  provider: string;
  /** Wall time from spawn to the first answered call (or to giving up). */
  startMs: number;
  /** Why the function would not start; its cells then carry the same error. */
  error?: string;
  /** RunFunction calls that reached the function, the start-up probe included. */
  calls: number;
  /** Requests answered from the persistent answer cache (answerCache.ts); absent when it was off. */
  cached?: number;
  /** Cells taken whole from the cell cache (cellCache.ts), neither simulated nor rendered; absent when it was off. */
  cachedCells?: number;
}
