import type { RuleContext, RuleMeta, Violation } from './types.js';

/** What `drift rules`, docs/rules.md and the contract say about this rule. */
export const meta: RuleMeta = {
  id: 'xr-converges',
  description: 'The reconcile loop reaches a fixpoint in every scenario; with credentials present and everything Ready, the XR is Ready there.',
  rationale: 'A function that keeps changing its answer, or never lets the XR become Ready, never settles in a real control plane.',
  class: 'contract',
  appliesWhen: 'Every scenario that renders without an error.',
  examples: {
    violation: 'A status field counts the steps, so every answer differs from the last.',
    fix: 'Compute every answer from the current request only, so a repeated request gets the same answer.',
  },
};

export function check({ skeleton, scenario }: RuleContext): Violation[] {
  if (skeleton.error) return [];
  if (!skeleton.converged) return [{ subject: 'converged', message: 'the answer never stops changing within the step cap' }];
  if (scenario.world.ready === 'all' && scenario.world.credentials === 'present' && !skeleton.converged.xrReady) {
    return [{ subject: 'converged', message: `converged at step ${skeleton.converged.step} with the XR not Ready` }];
  }
  return [];
}
