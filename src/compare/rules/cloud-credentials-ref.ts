import { DEFAULT_CREDENTIALS } from '../../roles/plane.js';
import type { RuleContext, RuleMeta, Violation } from './types.js';

/** What `drift rules`, docs/rules.md and the contract say about this rule. */
export const meta: RuleMeta = {
  id: 'cloud-credentials-ref',
  description: "Every cloud resource references the XR's credentials in spec.providerConfigRef (default ClusterProviderConfig/default).",
  rationale: 'A resource on other credentials provisions into another account, or fails where the team has no access.',
  class: 'contract',
  appliesWhen: 'Every scenario; every resource on the cloud plane (not the in-cluster ones, not core objects composed directly).',
  examples: {
    violation: 'The XR asks for ProviderConfig/team-a, but the network still references ClusterProviderConfig/default.',
    fix: 'Set spec.providerConfigRef from spec.credentials on every cloud resource, defaulting to ClusterProviderConfig/default.',
  },
};

export function check({ skeleton, scenario }: RuleContext): Violation[] {
  const expected = scenario.xr.credentials ?? DEFAULT_CREDENTIALS;
  return Object.entries(skeleton.resources)
    // Only cloud resources: in-cluster ones go through the workload cluster's ProviderConfig, and a
    // core object composed directly (a Secret) has no ProviderConfig at all.
    .filter(([, r]) => r.plane === 'cloud')
    .filter(([, r]) => r.providerConfigRef?.kind !== expected.kind || r.providerConfigRef?.name !== expected.name)
    .map(([key, r]) => ({ subject: key, message: `${key} references ${r.providerConfigRef ? `${r.providerConfigRef.kind}/${r.providerConfigRef.name}` : 'no ProviderConfig'}, not ${expected.kind}/${expected.name}` }));
}
