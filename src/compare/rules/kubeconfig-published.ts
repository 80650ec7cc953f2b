import { kubeconfigWiring } from '../../skeleton/wiring.js';
import type { Rule } from './types.js';

export const kubeconfigPublished: Rule = {
  id: 'kubeconfig-published',
  description: 'status.secrets has a Kubeconfig entry, and a composed resource writes that Secret.',
  rationale: 'InferenceCluster finds the workload cluster through this entry; an entry nothing writes points at a Secret that never exists.',
  check({ skeleton }) {
    if (skeleton.error || !skeleton.converged) return [];
    const { entry, writers } = kubeconfigWiring(skeleton);
    if (!entry) return [{ subject: 'status.secrets', message: 'no {type: Kubeconfig} entry in status.secrets' }];
    return writers.length ? [] : [{ subject: 'status.secrets', message: `no composed resource writes the Kubeconfig Secret ${entry.name}` }];
  },
};
