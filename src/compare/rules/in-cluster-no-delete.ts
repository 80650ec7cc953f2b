import type { Rule } from './types.js';

export const inClusterNoDelete: Rule = {
  id: 'in-cluster-no-delete',
  description: 'In-cluster resources (applied through a ProviderConfig the function composes: Objects, Releases, any kind) use management policies without Delete (or *).',
  rationale: 'They die with the cluster; deleting them first would wedge on a kubeconfig that is already gone.',
  check({ skeleton }) {
    return Object.entries(skeleton.resources)
      .filter(([, r]) => r.plane === 'in-cluster')
      .filter(([, r]) => !r.managementPolicies || r.managementPolicies.some((policy) => policy === 'Delete' || policy === '*'))
      .map(([key, r]) => ({ subject: key, message: `${key} has management policies ${JSON.stringify(r.managementPolicies ?? ['*'])}, which include Delete` }));
  },
};
