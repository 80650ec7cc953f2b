import { convergeDrops, losesCredentials, perturbationDrops } from './drops.js';
import type { Rule } from './types.js';

export const credentialsLossDropsNothing: Rule = {
  id: 'credentials-loss-drops-nothing',
  description: 'Missing, lost or unusable credentials never make the function drop a composed resource.',
  rationale: 'A resource the function stops returning is deleted: returning less because a credential went missing destroys infrastructure.',
  check({ skeleton, scenario }) {
    return [
      ...(scenario.world.credentials === 'missing' ? convergeDrops(skeleton, 'while the credentials are missing') : []),
      ...perturbationDrops(skeleton, losesCredentials),
    ];
  },
};
