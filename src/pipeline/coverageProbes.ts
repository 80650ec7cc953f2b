import type { Adapter, Scenario } from '../config/types.js';
import type { Finding } from '../compare/findings.js';
import { coverageFrom, probesFor } from '../compare/intentCoverage.js';
import { simulate, type Caller } from '../world/simulate.js';
import type { Trace } from '../world/trace.js';
import { renderError } from './failure.js';

export interface CoverageVerdict {
  /** Key → the pool intent fields that reach it; absent when the probes did not run or one failed. */
  coverage?: Record<string, string[]>;
  /** Probes the function failed. */
  errors: Finding[];
}

/**
 * Intent coverage of one `ablate` cell: re-simulate once per intent value of each pool, that value
 * changed (see compare/intentCoverage.ts). `call` is the provider's memo, so a probe costs only the steps
 * where its answers differ. A probe the function fails on is an error finding, and the cell then
 * publishes no coverage, as with gating.
 */
export async function analyzeCoverage(call: Caller, adapter: Adapter, scenario: Scenario, baseline: Trace, maxSteps: number): Promise<CoverageVerdict> {
  if (!scenario.ablate || baseline.error) return { errors: [] };
  const runs = await Promise.all(probesFor(adapter, scenario).map(async (probe) => ({ ...probe, trace: await simulate(call, adapter, probe.scenario, { maxSteps }) })));
  const errors = runs.filter((run) => run.trace.error).map((run) => renderError(baseline, `intent probe ${run.pool}.${run.field}`, run.trace.error!));
  return errors.length ? { errors } : { coverage: coverageFrom(baseline, runs), errors };
}
