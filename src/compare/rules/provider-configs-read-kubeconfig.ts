import { kubeconfigWiring } from '../../skeleton/wiring.js';
import type { RuleContext, RuleMeta, Violation } from './types.js';

const ROLES = ['provider-config-kubernetes', 'provider-config-helm'];

/** What `drift rules`, docs/rules.md and the contract say about this rule. */
export const meta: RuleMeta = {
  id: 'provider-configs-read-kubeconfig',
  description: 'Both workload-cluster ProviderConfigs (kubernetes and helm) exist and read exactly the published kubeconfig Secret and key.',
  rationale: 'Everything Modelplane installs in the cluster goes through these two ProviderConfigs.',
  class: 'contract',
  appliesWhen: 'Every scenario that converges.',
  examples: {
    violation: 'provider-config-helm reads the Secret <xr>-kubeconfig under the key config, but status.secrets publishes the key kubeconfig.',
    fix: 'Point both ProviderConfigs at exactly the published Secret name, namespace and key.',
  },
};

export function check({ skeleton }: RuleContext): Violation[] {
  if (skeleton.error || !skeleton.converged) return [];
  const { entry, readers } = kubeconfigWiring(skeleton);
  const violations = [];
  for (const role of ROLES) {
    const resource = Object.entries(skeleton.resources).find(([, r]) => r.role === role);
    if (!resource) {
      violations.push({ subject: role, message: `no ${role} is composed` });
      continue;
    }
    const [key, pc] = resource;
    if (!readers.some(([reader]) => reader === key)) {
      const wanted = entry ? `{namespace}/${entry.name}:${entry.key}` : '(none published)';
      violations.push({ subject: key, message: `${key} reads ${JSON.stringify(pc.reads ?? [])}, not the published kubeconfig ${wanted}` });
    }
  }
  return violations;
}
