import { convergeDrops, losesCredentials, perturbationDrops } from './drops.js';
import type { Rule } from './types.js';

export const nothingDropped: Rule = {
  id: 'nothing-dropped',
  description: 'With credentials present, the function never drops a composed resource: not while converging, not when a resource turns unready or is deleted (the cluster lost), not when a cloud fact is withdrawn.',
  rationale: 'Crossplane deletes what a function stops returning; a resource dropped because another one regressed is infrastructure destroyed by a transient state.',
  check({ skeleton, scenario }) {
    return [
      ...(scenario.world.credentials === 'present' ? convergeDrops(skeleton, 'while converging') : []),
      // credentials-loss-drops-nothing owns the drops after lost or unusable credentials.
      ...perturbationDrops(skeleton, (action) => !losesCredentials(action)),
    ];
  },
};
