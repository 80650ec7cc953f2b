import type { RuleContext, RuleMeta, Violation } from './types.js';

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** What `drift rules`, docs/rules.md and the contract say about this rule. */
export const meta: RuleMeta = {
  id: 'key-naming',
  description: 'Composed keys are kebab-case, and node-pool keys are `<prefix>-<pool name>`.',
  rationale: 'Keys are the names people and tools use for resources across every cloud; one convention keeps them predictable.',
  class: 'contract',
  appliesWhen: 'Every scenario; every composed key.',
  examples: {
    violation: 'A node pool for the pool gpu is composed under the key nodePool_gpu.',
    fix: 'Name it nodepool-gpu: kebab-case, ending with -<pool name>.',
  },
};

export function check({ skeleton, scenario }: RuleContext): Violation[] {
  const pools = scenario.xr.nodePools.map((pool) => pool.name);
  const violations = Object.keys(skeleton.resources)
    .filter((key) => !KEBAB.test(key))
    .map((key) => ({ subject: key, message: `${key} is not kebab-case` }));
  for (const [key, r] of Object.entries(skeleton.resources)) {
    if (r.role === 'node-pool' && !pools.some((pool) => key.endsWith(`-${pool}`))) {
      violations.push({ subject: key, message: `${key} does not end with -<pool name> (${pools.join(', ')})` });
    }
  }
  return violations;
}
