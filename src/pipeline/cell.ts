import type { RunFunctionRequest } from '@crossplane-org/function-sdk-typescript';
import type { Adapter, Scenario } from '../config/types.js';
import type { Finding } from '../compare/findings.js';
import { skeletonize } from '../skeleton/skeletonize.js';
import type { Skeleton, UnknownFacet } from '../skeleton/types.js';
import type { Answer } from '../world/protocol.js';
import { simulate, type Caller } from '../world/simulate.js';
import type { Trace } from '../world/trace.js';
import { checkDeterminism, type DeterminismVerdict } from './determinism.js';
import { renderError } from './failure.js';
import { analyzeCoverage, type CoverageVerdict, type ProbeStart } from './coverageProbes.js';
import type { DerivedFinder } from './twinRender.js';
import { analyzeGates, type GateVerdict } from './gates.js';
import { analyzeSpec, type SpecProbes } from './specProbes.js';

/**
 * A provider's running function as its cells see it: two callers over the same process, each with
 * its own request memo, created once per provider and handed to every one of its cells.
 */
export interface ProviderSession {
  adapter: Adapter;
  /**
   * Answers a request the function already answered from memory: scenarios share their first
   * steps, ablations share the baseline's, and the start-up probe is every scenario's first call.
   */
  call: Caller;
  /** For determinism replays: a memo of its own, so each replayed request reaches the function once. */
  replay: Caller;
  /** The name suffixes the function derives from the XR's identity, templated to `{hash}`; none when absent. */
  derived?: DerivedFinder;
}

export interface CellOptions {
  maxSteps: number;
  /** Replay the settled steps and report any answer that differs. */
  determinism: boolean;
  /** Run the gating analysis and the intent probes when the scenario is marked `ablate`. */
  gating: boolean;
  /** Where intent probes start (coverageProbes.ts); default the converged world. */
  probes?: ProbeStart;
}

/** One provider × scenario, analyzed to the end. */
export interface CellResult {
  provider: string;
  scenario: string;
  trace: Trace;
  /** Wall time of the main simulation (calls to one process overlap). */
  ms: number;
  /** Where two renders of the same request first differed; absent when they did not (or nothing was replayed). */
  nondeterministic?: string;
  /** The gating ablations' result; absent when none ran or one failed. */
  gates?: Record<string, string[]>;
  /** The intent probes' result: key → the pool intent fields that reach it; absent when none ran or one failed. */
  coverage?: Record<string, string[]>;
  /** What the spec probes saw (a region swapped, a spec it cannot compose); absent when none ran. */
  spec?: SpecProbes;
  skeleton: Skeleton;
  /**
   * Its own findings: what failed while rendering it (the render, a determinism replay, an ablation,
   * an intent probe). Rules and the golden comparison are a later, pure step (judgeCell in diffRun.ts).
   */
  findings: Finding[];
}

/** A cell that never rendered because its provider's function would not start. */
export function unstartedCell(adapter: Adapter, scenario: Scenario, error: string): CellResult {
  const trace: Trace = {
    provider: adapter.name,
    scenario: scenario.name,
    xr: { name: scenario.xr.name, namespace: scenario.xr.namespace, uid: '' },
    steps: [],
    converged: null,
    perturbations: [],
    error,
  };
  return { provider: adapter.name, scenario: scenario.name, trace, ms: 0, skeleton: skeletonFor(adapter, scenario, trace), findings: [renderError(trace, undefined, error)] };
}

function skeletonFor(
  adapter: Adapter,
  scenario: Scenario,
  trace: Trace,
  gates?: Record<string, string[]>,
  coverage?: Record<string, string[]>,
  derived?: readonly string[],
  unknown?: UnknownFacet[],
): Skeleton {
  return skeletonize({
    trace,
    adapter,
    pools: scenario.xr.nodePools.map((pool) => pool.name),
    ...(gates ? { gates } : {}),
    ...(coverage ? { coverage } : {}),
    ...(derived?.length ? { derived } : {}),
    ...(unknown?.length ? { unknown } : {}),
  });
}

/** The step whose answer the skeleton's resources and status rest on: the fixpoint, else the last converging step. */
function convergedStep(trace: Trace): number {
  return trace.converged?.step ?? trace.steps.filter((step) => step.phase === 'converge').length - 1;
}

/** The facets a cell's failed analyses leave unknown: gated-on when an ablation errored, intent when a probe did. */
function unknownFacets(analysed: boolean, gating: GateVerdict, coverage: CoverageVerdict): UnknownFacet[] {
  if (!analysed) return [];
  return [...(gating.errors.length ? (['gated-on'] as const) : []), ...(coverage.errors.length ? (['intent'] as const) : [])];
}

/**
 * The pipeline of one cell: render (simulate the reconcile loop), then the determinism replays, the
 * gating ablations and the intent probes side by side, then the skeleton and the errors met on the
 * way. Everything it learns is in the value it returns, unjudged; `rendered` lets the caller report
 * progress once the main render is done.
 */
export async function runCell(session: ProviderSession, scenario: Scenario, options: CellOptions, rendered?: (trace: Trace, ms: number) => void): Promise<CellResult> {
  const { adapter } = session;
  const recorded = new Map<number, { request: RunFunctionRequest; answer: Answer }>();
  const began = performance.now();
  // Every step's request is kept (references only): the determinism replays and the twin render read them.
  const trace = await simulate(session.call, adapter, scenario, {
    maxSteps: options.maxSteps,
    onStep: (step: number, request: RunFunctionRequest, answer: Answer) => recorded.set(step, { request, answer }),
  });
  const ms = performance.now() - began;
  rendered?.(trace, ms);
  const convergedRequest = trace.converged ? recorded.get(trace.converged.step)?.request : undefined;
  const [determinism, gating, coverage, derived, spec] = await Promise.all([
    options.determinism ? checkDeterminism(session.replay, trace, recorded) : ({} as DeterminismVerdict),
    options.gating ? analyzeGates(session.call, adapter, scenario, trace, options.maxSteps) : ({ errors: [] } as GateVerdict),
    options.gating
      ? analyzeCoverage(session.call, adapter, scenario, trace, options.maxSteps, options.probes === 'empty' || !trace.converged ? undefined : recorded.get(trace.converged.step)?.request)
      : ({ errors: [] } as CoverageVerdict),
    session.derived ? session.derived(trace, recorded.get(convergedStep(trace))) : [],
    options.gating ? analyzeSpec(session.call, adapter, scenario, trace, convergedRequest) : ({} as SpecProbes),
  ]);
  // An analysis that errored has no result: its facets are unknown for this cell, not empty, and only
  // its error finding speaks for it (never gated-on or intent divergences read from an absence).
  const unknown = unknownFacets(options.gating && scenario.ablate && !trace.error, gating, coverage);
  const skeleton = skeletonFor(adapter, scenario, trace, gating.gates, coverage.coverage, derived, unknown);
  const errors = [
    ...(trace.error ? [renderError(trace, undefined, trace.error)] : []),
    ...(determinism.error ? [determinism.error] : []),
    ...gating.errors,
    ...coverage.errors,
  ];
  return {
    provider: adapter.name,
    scenario: scenario.name,
    trace,
    ms,
    ...(determinism.nondeterministic ? { nondeterministic: determinism.nondeterministic } : {}),
    ...(gating.gates ? { gates: gating.gates } : {}),
    ...(coverage.coverage ? { coverage: coverage.coverage } : {}),
    ...(Object.keys(spec).length ? { spec } : {}),
    skeleton,
    findings: errors,
  };
}
