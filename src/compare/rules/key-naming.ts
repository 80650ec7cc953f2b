import type { Rule } from './types.js';

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export const keyNaming: Rule = {
  id: 'key-naming',
  description: 'Composed keys are kebab-case, and node-pool keys are `<prefix>-<pool name>`.',
  rationale: 'Keys are the names people and tools use for resources across every cloud; one convention keeps them predictable.',
  check({ skeleton, scenario }) {
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
  },
};
