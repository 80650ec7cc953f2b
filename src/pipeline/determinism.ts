import type { RunFunctionRequest } from '@crossplane-org/function-sdk-typescript';
import type { Finding } from '../compare/findings.js';
import { readResponse, type Answer } from '../world/protocol.js';
import type { Caller } from '../world/simulate.js';
import type { Trace } from '../world/trace.js';
import { renderError } from './failure.js';
import { sameWire } from '../functions/wireResponse.js';

/** What a cell's main render sent and got back at each step, for replaying the settled ones. */
export type RecordedSteps = ReadonlyMap<number, { request: RunFunctionRequest; answer: Answer }>;

export interface DeterminismVerdict {
  /** Where a replayed answer first differed (`step 2, resource cluster`); absent when none did. */
  nondeterministic?: string;
  /** A replay the function failed to answer. */
  error?: Finding;
}

/** The steps whose answers the skeleton rests on: the converged step and the last step of each perturbation. */
function settledSteps(trace: Trace): number[] {
  const steps = trace.perturbations.map((perturbation) => perturbation.to);
  steps.push(trace.converged?.step ?? trace.steps.length - 1);
  return [...new Set(steps)].filter((step) => step >= 0).sort((a, b) => a - b);
}

/**
 * Replays the exact request of every settled step and compares the answers. A function whose
 * answers wander earlier never reaches a fixpoint at all, which xr-converges reports. `replay` is
 * the provider's replay memo: scenarios that share their first steps settle on identical requests,
 * and each reaches the function once more, not once per scenario.
 */
export async function checkDeterminism(replay: Caller, trace: Trace, recorded: RecordedSteps): Promise<DeterminismVerdict> {
  if (trace.error) return {};
  for (const step of settledSteps(trace)) {
    const first = recorded.get(step);
    if (!first) continue;
    let again: Answer;
    try {
      again = readResponse(await replay(first.request));
    } catch (error) {
      return { error: renderError(trace, 'determinism replay', `step ${step}: ${(error as Error).message}`) };
    }
    // The same bytes are the same answer; else readResponse canonicalizes key order, so equal answers give equal JSON.
    if (sameWire(again, first.answer) || JSON.stringify(again) === JSON.stringify(first.answer)) continue;
    const keys = [...new Set([...Object.keys(first.answer.resources), ...Object.keys(again.resources)])].sort();
    const key = keys.find((k) => JSON.stringify(first.answer.resources[k]) !== JSON.stringify(again.resources[k]));
    return { nondeterministic: `step ${step}${key ? `, resource ${key}` : ' (status, results or requirements)'}` };
  }
  return {};
}
