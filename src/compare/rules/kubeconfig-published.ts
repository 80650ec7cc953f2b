import { kubeconfigWiring } from '../../skeleton/wiring.js';
import type { RuleContext, RuleMeta, Violation } from './types.js';

/** What `drift rules`, docs/rules.md and the contract say about this rule. */
export const meta: RuleMeta = {
  id: 'kubeconfig-published',
  description: 'status.secrets has a Kubeconfig entry, and a composed resource writes that Secret.',
  rationale: 'InferenceCluster finds the workload cluster through this entry; an entry nothing writes points at a Secret that never exists.',
  class: 'contract',
  appliesWhen: 'Every scenario that converges.',
  examples: {
    violation: 'status.secrets names <xr>-kubeconfig, but no composed resource sets writeConnectionSecretToRef to it.',
    fix: 'Have the cluster (or the resource that holds the credentials) write its connection Secret under the published name.',
  },
};

export function check({ skeleton }: RuleContext): Violation[] {
  if (skeleton.error || !skeleton.converged) return [];
  const { entry, writers } = kubeconfigWiring(skeleton);
  if (!entry) return [{ subject: 'status.secrets', message: 'no {type: Kubeconfig} entry in status.secrets' }];
  return writers.length ? [] : [{ subject: 'status.secrets', message: `no composed resource writes the Kubeconfig Secret ${entry.name}` }];
}
