import { convergeDrops, losesCredentials, perturbationDrops } from './drops.js';
import type { RuleContext, RuleMeta, Violation } from './types.js';

/** What `drift rules`, docs/rules.md and the contract say about this rule. */
export const meta: RuleMeta = {
  id: 'credentials-loss-drops-nothing',
  description: 'Missing, lost or unusable credentials never make the function drop a composed resource.',
  rationale: 'A resource the function stops returning is deleted: returning less because a credential went missing destroys infrastructure.',
  class: 'contract',
  appliesWhen: 'Scenarios whose credentials are missing, and every perturbation that takes them away or makes them unusable (remove-credentials, break-credentials).',
  examples: {
    violation: 'After the ProviderConfig disappears the function stops returning the node pools it composed before.',
    fix: 'Keep what observed state already holds: return those resources from observed state while the credentials are gone.',
  },
};

export function check({ skeleton, scenario }: RuleContext): Violation[] {
  return [
    ...(scenario.world.credentials === 'missing' ? convergeDrops(skeleton, 'while the credentials are missing') : []),
    ...perturbationDrops(skeleton, losesCredentials),
  ];
}
