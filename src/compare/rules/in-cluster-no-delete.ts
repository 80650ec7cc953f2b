import type { RuleContext, RuleMeta, Violation } from './types.js';

/** What `drift rules`, docs/rules.md and the contract say about this rule. */
export const meta: RuleMeta = {
  id: 'in-cluster-no-delete',
  description: 'In-cluster resources (applied through a ProviderConfig the function composes: Objects, Releases, any kind) use management policies without Delete (or *).',
  rationale: 'They die with the cluster; deleting them first would wedge on a kubeconfig that is already gone.',
  class: 'contract',
  appliesWhen: 'Every scenario; every resource on the in-cluster plane (applied through a ProviderConfig the function composes).',
  examples: {
    violation: 'The storage-class-rwx Object has no managementPolicies, so it defaults to ["*"].',
    fix: 'Set spec.managementPolicies to [Observe, Create, Update, LateInitialize].',
  },
};

export function check({ skeleton }: RuleContext): Violation[] {
  return Object.entries(skeleton.resources)
    .filter(([, r]) => r.plane === 'in-cluster')
    .filter(([, r]) => !r.managementPolicies || r.managementPolicies.some((policy) => policy === 'Delete' || policy === '*'))
    .map(([key, r]) => ({ subject: key, message: `${key} has management policies ${JSON.stringify(r.managementPolicies ?? ['*'])}, which include Delete` }));
}
