import { convergeDrops, losesCredentials, perturbationDrops } from './drops.js';
import type { RuleContext, RuleMeta, Violation } from './types.js';

/** What `drift rules`, docs/rules.md and the contract say about this rule. */
export const meta: RuleMeta = {
  id: 'nothing-dropped',
  description: 'With credentials present, the function never drops a composed resource: not while converging, not when a resource turns unready or is deleted (the cluster lost), not when a cloud fact is withdrawn.',
  rationale: 'Crossplane deletes what a function stops returning; a resource dropped because another one regressed is infrastructure destroyed by a transient state.',
  class: 'contract',
  appliesWhen: 'Scenarios with credentials present while converging, and every perturbation that leaves the credentials usable (unready, delete, withdraw-fact).',
  examples: {
    violation: 'When the cluster turns unready the function stops returning the node pools.',
    fix: 'Compose dependants once their inputs are observed and keep them from observed state afterwards.',
  },
};

export function check({ skeleton, scenario }: RuleContext): Violation[] {
  return [
    ...(scenario.world.credentials === 'present' ? convergeDrops(skeleton, 'while converging') : []),
    // credentials-loss-drops-nothing owns the drops after lost or unusable credentials.
    ...perturbationDrops(skeleton, (action) => !losesCredentials(action)),
  ];
}
