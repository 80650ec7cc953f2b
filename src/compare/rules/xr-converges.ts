import type { Rule } from './types.js';

export const xrConverges: Rule = {
  id: 'xr-converges',
  description: 'The reconcile loop reaches a fixpoint in every scenario; with credentials present and everything Ready, the XR is Ready there.',
  rationale: 'A function that keeps changing its answer, or never lets the XR become Ready, never settles in a real control plane.',
  check({ skeleton, scenario }) {
    if (skeleton.error) return [];
    if (!skeleton.converged) return [{ subject: 'converged', message: 'the answer never stops changing within the step cap' }];
    if (scenario.world.ready === 'all' && scenario.world.credentials === 'present' && !skeleton.converged.xrReady) {
      return [{ subject: 'converged', message: `converged at step ${skeleton.converged.step} with the XR not Ready` }];
    }
    return [];
  },
};
