import type { Rule } from './types.js';

export const credentialsLossDropsNothing: Rule = {
  id: 'credentials-loss-drops-nothing',
  description: 'Missing or lost credentials never make the function drop a composed resource.',
  rationale: 'A resource the function stops returning is deleted: returning less because a credential went missing destroys infrastructure.',
  check({ skeleton, scenario }) {
    const violations =
      scenario.world.credentials === 'missing'
        ? Object.entries(skeleton.resources)
            .filter(([, r]) => r.dropped !== undefined)
            .map(([key, r]) => ({ subject: key, message: `${key} is dropped at step ${r.dropped} while the credentials are missing` }))
        : [];
    for (const perturbation of skeleton.then) {
      if (perturbation.do !== 'remove-credentials') continue;
      for (const key of perturbation.dropped) violations.push({ subject: key, message: `${key} is dropped after the credentials disappear` });
    }
    return violations;
  },
};
