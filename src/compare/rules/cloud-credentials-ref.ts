import { DEFAULT_CREDENTIALS } from '../../contract/plane.js';
import type { Rule } from './types.js';

export const cloudCredentialsRef: Rule = {
  id: 'cloud-credentials-ref',
  description: "Every cloud resource references the XR's credentials in spec.providerConfigRef (default ClusterProviderConfig/default).",
  rationale: 'A resource on other credentials provisions into another account, or fails where the team has no access.',
  check({ skeleton, scenario }) {
    const expected = scenario.xr.credentials ?? DEFAULT_CREDENTIALS;
    return Object.entries(skeleton.resources)
      // Only cloud resources: in-cluster ones go through the workload cluster's ProviderConfig, and a
      // core object composed directly (a Secret) has no ProviderConfig at all.
      .filter(([, r]) => r.plane === 'cloud')
      .filter(([, r]) => r.providerConfigRef?.kind !== expected.kind || r.providerConfigRef?.name !== expected.name)
      .map(([key, r]) => ({ subject: key, message: `${key} references ${r.providerConfigRef ? `${r.providerConfigRef.kind}/${r.providerConfigRef.name}` : 'no ProviderConfig'}, not ${expected.kind}/${expected.name}` }));
  },
};
