import type { RuleContext, RuleMeta, Violation } from './types.js';

/** What `drift rules`, docs/rules.md and the contract say about this rule. */
export const meta: RuleMeta = {
  id: 'readiness-coverage',
  description: 'When the world reports everything Ready (credentials present), every composed resource is marked READY_TRUE.',
  rationale: 'Crossplane counts a resource ready only if the function says READY_TRUE; one never marked keeps the XR unready forever.',
  class: 'contract',
  appliesWhen: 'Scenarios with credentials present and everything Ready, once the loop has converged.',
  examples: {
    violation: 'provider-config-kubernetes is composed but never marked READY_TRUE.',
    fix: 'Mark every composed resource in mark_readiness: cloud ones when observed Ready, the others on compose.',
  },
};

export function check({ skeleton, scenario }: RuleContext): Violation[] {
  if (scenario.world.ready !== 'all' || scenario.world.credentials !== 'present' || !skeleton.converged) return [];
  return Object.entries(skeleton.resources)
    .filter(([, resource]) => resource.ready === null && resource.dropped === undefined)
    .map(([key]) => ({ subject: key, message: `${key} is never marked READY_TRUE although the world reports it Ready` }));
}
