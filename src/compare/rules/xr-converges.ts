import type { Rule } from './types.js';

export const xrConverges: Rule = {
  id: 'xr-converges',
  description: 'With credentials present and everything Ready, the reconcile loop reaches a fixpoint with the XR Ready.',
  rationale: 'A function that keeps changing its answer, or never lets the XR become Ready, never settles in a real control plane.',
  check({ skeleton, scenario }) {
    if (scenario.world.ready !== 'all' || scenario.world.credentials !== 'present' || skeleton.error) return [];
    if (!skeleton.converged) return [{ subject: 'converged', message: 'the answer never stops changing within the step cap' }];
    if (!skeleton.converged.xrReady) return [{ subject: 'converged', message: `converged at step ${skeleton.converged.step} with the XR not Ready` }];
    return [];
  },
};
