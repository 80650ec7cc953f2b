import type { Finding } from '../findings.js';
import { cacheStorageClass } from './cache-storage-class.js';
import { cloudCredentialsRef } from './cloud-credentials-ref.js';
import { credentialsLossDropsNothing } from './credentials-loss-drops-nothing.js';
import { deterministicOutput } from './deterministic-output.js';
import { inClusterNoDelete } from './in-cluster-no-delete.js';
import { keyNaming } from './key-naming.js';
import { kubeconfigPublished } from './kubeconfig-published.js';
import { namespacedRequirement } from './namespaced-requirement.js';
import { noEarlyReady } from './no-early-ready.js';
import { nothingDropped } from './nothing-dropped.js';
import { noEmptySecretRef } from './no-empty-secret-ref.js';
import { providerConfigsReadKubeconfig } from './provider-configs-read-kubeconfig.js';
import { readinessCoverage } from './readiness-coverage.js';
import type { Rule, RuleContext } from './types.js';
import { xrConverges } from './xr-converges.js';

export const RULES: readonly Rule[] = [
  readinessCoverage,
  noEarlyReady,
  xrConverges,
  kubeconfigPublished,
  providerConfigsReadKubeconfig,
  cacheStorageClass,
  inClusterNoDelete,
  cloudCredentialsRef,
  namespacedRequirement,
  credentialsLossDropsNothing,
  nothingDropped,
  noEmptySecretRef,
  deterministicOutput,
  keyNaming,
];

/** Every rule over one cell; each violation becomes a contract finding. */
export function checkRules(context: RuleContext): Finding[] {
  const { provider, scenario } = context.skeleton;
  return RULES.flatMap((rule) =>
    rule.check(context).map((violation) => ({
      id: `rule:${rule.id}:${provider}/${scenario}:${violation.subject}`,
      type: 'rule' as const,
      class: 'contract' as const,
      provider,
      scenario,
      subject: violation.subject,
      facet: rule.id,
      message: `${rule.id}: ${violation.message}`,
      hint: rule.rationale,
    })),
  );
}
