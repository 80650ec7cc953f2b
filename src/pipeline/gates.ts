import type { Adapter, Scenario } from '../config/types.js';
import type { Finding } from '../compare/findings.js';
import { ablationsFor, followUps, gatesFrom, hidesSomething, type Ablation } from '../compare/gating.js';
import { simulate, type Caller } from '../world/simulate.js';
import type { Trace } from '../world/trace.js';
import { renderError } from './failure.js';

export interface GateVerdict {
  /** Key → the facts without which it never appears; absent when the analysis did not run or an ablation failed. */
  gates?: Record<string, string[]>;
  /** Ablations the function failed. */
  errors: Finding[];
}

/**
 * The gating analysis of one `ablate` cell: re-simulate once per withheld fact (see
 * compare/gating.ts). A first-round run that hides something starts its follow-ups at once, so the
 * function always has calls waiting; `call` is the provider's memo, so each ablation costs only the
 * steps where it differs from the baseline.
 */
export async function analyzeGates(call: Caller, adapter: Adapter, scenario: Scenario, baseline: Trace, maxSteps: number): Promise<GateVerdict> {
  if (!scenario.ablate || baseline.error) return { errors: [] };
  const everything = new Set(baseline.steps.flatMap((step) => Object.keys(step.resources)));
  const run = async ({ gate, withhold }: Ablation) => ({
    gate,
    trace: await simulate(call, adapter, scenario, { maxSteps, withhold, stopOnceAppeared: everything }),
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
  const errors = runs.filter((r) => r.trace.error).map((r) => renderError(baseline, `ablation ${r.gate}`, r.trace.error!));
  return errors.length ? { errors } : { gates: gatesFrom(baseline, runs), errors };
}
