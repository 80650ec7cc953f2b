import { isInCluster, type Rule } from './types.js';

export const inClusterNoDelete: Rule = {
  id: 'in-cluster-no-delete',
  description: 'In-cluster Objects use management policies without Delete (or *).',
  rationale: 'They die with the cluster; deleting them first would wedge on a kubeconfig that is already gone.',
  check({ skeleton }) {
    return Object.entries(skeleton.resources)
      .filter(([, r]) => r.kind === 'Object' && isInCluster(r.apiVersion))
      .filter(([, r]) => !r.managementPolicies || r.managementPolicies.some((policy) => policy === 'Delete' || policy === '*'))
      .map(([key, r]) => ({ subject: key, message: `${key} has management policies ${JSON.stringify(r.managementPolicies ?? ['*'])}, which include Delete` }));
  },
};
