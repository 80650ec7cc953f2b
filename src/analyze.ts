import type { RunFunctionRequest } from '@crossplane-org/function-sdk-typescript';
import type { Adapter, Project } from './config/types.js';
import type { Finding } from './compare/findings.js';
import { coverageFrom, probesFor } from './compare/coverage.js';
import { ablationsFor, followUps, gatesFrom, hidesSomething, type Ablation } from './compare/gating.js';
import { runMatrix, simulateOptions, type Progress, type ProviderStart, type RenderTiming } from './render/matrix.js';
import { skeletonize } from './skeleton/skeletonize.js';
import type { Skeleton } from './skeleton/types.js';
import { readResponse, type Answer } from './world/protocol.js';
import { simulate, type Caller } from './world/simulate.js';
import type { Trace } from './world/trace.js';

export interface AnalyzeOptions {
  onProgress?: (progress: Progress) => void;
  /** Replay the settled steps of every cell and report any answer that differs (default true). */
  determinism?: boolean;
  /** Run the gating analysis and the intent probes on scenarios marked `ablate` (default true). */
  gating?: boolean;
  /**
   * Receives each skeleton as soon as its provider is done (with the provider's determinism verdict),
   * so judging it overlaps with the providers still rendering.
   */
  onSkeleton?: (skeleton: Skeleton, nondeterministic: string | undefined) => void;
}

export interface Analysis {
  starts: ProviderStart[];
  timings: RenderTiming[];
  traces: Trace[];
  skeletons: Skeleton[];
  /** Rendering errors: cells that could not be simulated to the end. */
  findings: Finding[];
  /** Cells whose second render differed, with where it first did (`provider/scenario` → place). */
  nondeterministic: Map<string, string>;
  calls: number;
}

/** A cell that could not be analyzed to the end: the function failed while drift rendered it. */
function errorFinding(trace: Pick<Trace, 'provider' | 'scenario'>, what: string | undefined, message: string): Finding {
  return {
    id: `error:${trace.provider}/${trace.scenario}${what ? `:${what}` : ''}`,
    type: 'error',
    class: 'contract',
    provider: trace.provider,
    scenario: trace.scenario,
    subject: what ?? 'render',
    message: what ? `${what}: ${message}` : message,
    hint: "fix the function (drift shows the end of its output with the error) and run drift again",
  };
}

/** The steps whose answers the skeleton rests on: the converged step and the last step of each perturbation. */
function settledSteps(trace: Trace): number[] {
  const steps = trace.perturbations.map((perturbation) => perturbation.to);
  steps.push(trace.converged?.step ?? trace.steps.length - 1);
  return [...new Set(steps)].filter((step) => step >= 0).sort((a, b) => a - b);
}

/**
 * Determinism: replay the exact request of every settled step and compare the answers. A function
 * whose answers wander earlier never reaches a fixpoint at all, which xr-converges reports.
 * `replay` is shared by a provider's cells: scenarios that share their first steps settle on
 * identical requests, and each is replayed once.
 */
async function checkDeterminism(
  replay: Caller,
  trace: Trace,
  recorded: Map<string, Map<number, { request: RunFunctionRequest; answer: Answer }>>,
  nondeterministic: Map<string, string>,
  findings: Finding[],
): Promise<void> {
  if (trace.error) return;
  const cell = `${trace.provider}/${trace.scenario}`;
  for (const step of settledSteps(trace)) {
    const first = recorded.get(cell)?.get(step);
    if (!first) continue;
    let again: Answer;
    try {
      again = readResponse(await replay(first.request));
    } catch (error) {
      findings.push(errorFinding(trace, 'determinism replay', `step ${step}: ${(error as Error).message}`));
      return;
    }
    // readResponse canonicalizes key order, so equal answers give equal JSON.
    if (JSON.stringify(again) === JSON.stringify(first.answer)) continue;
    const keys = [...new Set([...Object.keys(first.answer.resources), ...Object.keys(again.resources)])].sort();
    const key = keys.find((k) => JSON.stringify(first.answer.resources[k]) !== JSON.stringify(again.resources[k]));
    nondeterministic.set(cell, `step ${step}${key ? `, resource ${key}` : ' (status, results or requirements)'}`);
    return;
  }
}

/**
 * Gating analysis: re-simulate an `ablate` scenario once per withheld fact; see compare/gating.ts.
 * A first-round run that hides something starts its follow-ups at once, so the function always has
 * calls waiting.
 */
async function analyzeGates(
  project: Project,
  adapter: Adapter,
  call: Caller,
  baseline: Trace,
  gates: Map<string, Record<string, string[]>>,
  findings: Finding[],
): Promise<void> {
  const scenario = project.scenarios.find((s) => s.name === baseline.scenario)!;
  if (!scenario.ablate || baseline.error) return;
  const everything = new Set(baseline.steps.flatMap((step) => Object.keys(step.resources)));
  const run = async ({ gate, withhold }: Ablation) => ({
    gate,
    trace: await simulate(call, adapter, scenario, { ...simulateOptions(project), withhold, stopOnceAppeared: everything }),
  });
  const rounds = await Promise.all(
    ablationsFor(baseline).map(async (ablation) => {
      const first = await run(ablation);
      const { withhold } = ablation;
      const gating = withhold.what === 'exists' && hidesSomething(baseline, first.trace);
      return gating ? [first, ...(await Promise.all(followUps(adapter, baseline, withhold.key).map(run)))] : [first];
    }),
  );
  const runs = rounds.flat();
  // A function that fails when a fact is withheld has a bug the analysis exists to show: say so
  // rather than drop the run, and publish no gates for the cell.
  const failed = runs.filter((r) => r.trace.error);
  for (const r of failed) findings.push(errorFinding(baseline, `ablation ${r.gate}`, r.trace.error!));
  if (failed.length === 0) gates.set(`${baseline.provider}/${baseline.scenario}`, gatesFrom(baseline, runs));
}

/**
 * Intent coverage: re-simulate an `ablate` scenario once per intent value of each pool, that value
 * changed; see compare/coverage.ts. A probe the function fails on is an error finding, and the cell
 * then publishes no coverage, as with gating.
 */
async function analyzeCoverage(
  project: Project,
  adapter: Adapter,
  call: Caller,
  baseline: Trace,
  coverage: Map<string, Record<string, string[]>>,
  findings: Finding[],
): Promise<void> {
  const scenario = project.scenarios.find((s) => s.name === baseline.scenario)!;
  if (!scenario.ablate || baseline.error) return;
  const runs = await Promise.all(
    probesFor(adapter, scenario).map(async (probe) => ({ ...probe, trace: await simulate(call, adapter, probe.scenario, simulateOptions(project)) })),
  );
  const failed = runs.filter((run) => run.trace.error);
  for (const run of failed) findings.push(errorFinding(baseline, `intent probe ${run.pool}.${run.field}`, run.trace.error!));
  if (failed.length === 0) coverage.set(`${baseline.provider}/${baseline.scenario}`, coverageFrom(baseline, runs));
}

/** Renders every provider × scenario and reduces each trace to its skeleton. */
export async function analyze(project: Project, options: AnalyzeOptions = {}): Promise<Analysis> {
  const findings: Finding[] = [];
  const nondeterministic = new Map<string, string>();
  const gates = new Map<string, Record<string, string[]>>();
  const coverage = new Map<string, Record<string, string[]>>();
  const recorded = new Map<string, Map<number, { request: RunFunctionRequest; answer: Answer }>>();
  const built = new Map<string, Skeleton>();
  const { starts, traces, timings, calls } = await runMatrix(project, {
    onProgress: options.onProgress,
    ...(options.determinism !== false
      ? {
          onStep: (cell: string, step: number, request: RunFunctionRequest, answer: Answer) => {
            const steps = recorded.get(cell) ?? new Map();
            steps.set(step, { request, answer });
            recorded.set(cell, steps);
          },
        }
      : {}),
    // Each cell is checked as soon as it has rendered, while the provider's other cells still render.
    withCell: async (adapter, { call, replay }, trace) => {
      await Promise.all([
        options.determinism !== false ? checkDeterminism(replay, trace, recorded, nondeterministic, findings) : undefined,
        options.gating !== false ? analyzeGates(project, adapter, call, trace, gates, findings) : undefined,
        options.gating !== false ? analyzeCoverage(project, adapter, call, trace, coverage, findings) : undefined,
      ]);
    },
    // Skeletons are built (and judged) per provider while the others still render.
    onTraces: (adapter, own) => {
      for (const trace of own) {
        const scenario = project.scenarios.find((s) => s.name === trace.scenario)!;
        const cell = `${trace.provider}/${trace.scenario}`;
        const cellGates = gates.get(cell);
        const cellCoverage = coverage.get(cell);
        const skeleton = skeletonize({
          trace,
          adapter,
          pools: scenario.xr.nodePools.map((pool) => pool.name),
          ...(cellGates ? { gates: cellGates } : {}),
          ...(cellCoverage ? { coverage: cellCoverage } : {}),
        });
        built.set(cell, skeleton);
        options.onSkeleton?.(skeleton, nondeterministic.get(cell));
      }
    },
  });
  // In matrix order (provider, scenario), whatever order the providers finished in.
  const skeletons = traces.map((trace) => built.get(`${trace.provider}/${trace.scenario}`)!);
  for (const trace of traces) if (trace.error) findings.push(errorFinding(trace, undefined, trace.error));
  return { starts, traces, timings, skeletons, findings, nondeterministic, calls };
}
