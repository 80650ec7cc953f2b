import type { RunFunctionRequest } from '@crossplane-org/function-sdk-typescript';
import type { Adapter, Scenario } from '../config/types.js';
import type { Finding } from '../compare/findings.js';
import { coverageFrom, probesFor, settledResources, type IntentProbe } from '../compare/intentCoverage.js';
import { readResponse } from '../world/protocol.js';
import { simulate, type Caller } from '../world/simulate.js';
import type { DesiredResource, Trace } from '../world/trace.js';
import { buildXR } from '../world/xr.js';
import { renderError } from './failure.js';

export interface CoverageVerdict {
  /** Key → the pool intent fields that reach it; absent when the probes did not run or one failed. */
  coverage?: Record<string, string[]>;
  /** Probes the function failed. */
  errors: Finding[];
}

/**
 * Where a probe starts: from the baseline's converged world (one call: the converged step's request
 * with the probe's XR), or from an empty world (a whole simulation, as the baseline's). The first
 * is the default; the second is what the first is checked against (DRIFT_PROBES=empty).
 */
export type ProbeStart = 'converged' | 'empty';

/**
 * Intent coverage of one `ablate` cell: render once per intent value of each pool, that value
 * changed (see compare/intentCoverage.ts). From the converged world a probe costs one call: the
 * baseline's settled answer came from exactly that request but for the XR, so what differs is the
 * probe's doing. A probe whose answer asks for other requirements or says Fatal, or whose call
 * fails, is simulated whole from an empty world instead, so its error finding and its bodies read
 * as a full render's. A probe the function fails on is an error finding, and the cell then
 * publishes no coverage, as with gating.
 */
export async function analyzeCoverage(
  call: Caller,
  adapter: Adapter,
  scenario: Scenario,
  baseline: Trace,
  maxSteps: number,
  converged?: RunFunctionRequest,
): Promise<CoverageVerdict> {
  if (!scenario.ablate || baseline.error) return { errors: [] };
  const runs = await Promise.all(
    probesFor(adapter, scenario).map(async (probe) => {
      const quick = converged && baseline.converged ? await fromConverged(call, adapter, probe, converged, baseline) : undefined;
      if (quick) return { ...probe, settled: quick, error: undefined };
      const trace = await simulate(call, adapter, probe.scenario, { maxSteps });
      return { ...probe, settled: settledResources(trace), error: trace.error };
    }),
  );
  const errors = runs.filter((run) => run.error).map((run) => renderError(baseline, `intent probe ${run.pool}.${run.field}`, run.error!));
  return errors.length ? { errors } : { coverage: coverageFrom(baseline, runs), errors };
}

/** The probe's settled resources from the converged world; undefined when it must be simulated whole. */
async function fromConverged(call: Caller, adapter: Adapter, probe: IntentProbe, converged: RunFunctionRequest, baseline: Trace): Promise<Record<string, DesiredResource> | undefined> {
  const composite = converged.observed?.composite;
  if (!composite?.resource) return undefined;
  const xr = { ...buildXR(adapter, probe.scenario), status: composite.resource.status };
  const request: RunFunctionRequest = { ...converged, observed: { ...converged.observed!, composite: { ...composite, resource: xr } } };
  try {
    const answer = readResponse(await call(request));
    const settled = baseline.steps[baseline.converged!.step]!;
    if (answer.results.some((result) => result.severity === 'Fatal')) return undefined;
    if (JSON.stringify(answer.requirements) !== JSON.stringify(settled.requirements)) return undefined;
    return answer.resources;
  } catch {
    return undefined;
  }
}
