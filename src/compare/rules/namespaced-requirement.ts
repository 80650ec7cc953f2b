import type { Rule } from './types.js';

export const namespacedRequirement: Rule = {
  id: 'namespaced-requirement',
  description: "A requirement for a namespaced ProviderConfig carries the XR's namespace.",
  rationale: 'Without a namespace Crossplane looks for a cluster-scoped resource and finds nothing: the function waits forever.',
  check({ skeleton }) {
    return Object.entries(skeleton.requirements)
      .filter(([, requirement]) => requirement.kind === 'ProviderConfig' && requirement.select.namespace !== '{namespace}')
      .map(([name, requirement]) => ({
        subject: `requirements.${name}`,
        message: requirement.select.namespace
          ? `requirement ${name} selects a namespaced ProviderConfig in ${requirement.select.namespace}, not the XR's namespace`
          : `requirement ${name} selects a namespaced ProviderConfig without a namespace`,
      }));
  },
};
