import type { RuleContext, RuleMeta, Violation } from './types.js';

/** What `drift rules`, docs/rules.md and the contract say about this rule. */
export const meta: RuleMeta = {
  id: 'namespaced-requirement',
  description: "A requirement for a namespaced ProviderConfig carries the XR's namespace.",
  rationale: 'Without a namespace Crossplane looks for a cluster-scoped resource and finds nothing: the function waits forever.',
  class: 'contract',
  appliesWhen: 'Every scenario whose XR uses a namespaced ProviderConfig; every requirement for one.',
  examples: {
    violation: 'The requirement for ProviderConfig/team-a matches by name only.',
    fix: 'Add the XR\'s namespace to the requirement\'s selector.',
  },
};

export function check({ skeleton }: RuleContext): Violation[] {
  return Object.entries(skeleton.requirements)
    .filter(([, requirement]) => requirement.kind === 'ProviderConfig' && requirement.select.namespace !== '{namespace}')
    .map(([name, requirement]) => ({
      subject: `requirements.${name}`,
      message: requirement.select.namespace
        ? `requirement ${name} selects a namespaced ProviderConfig in ${requirement.select.namespace}, not the XR's namespace`
        : `requirement ${name} selects a namespaced ProviderConfig without a namespace`,
    }));
}
