import type { Finding } from '../findings.js';
import { ruleId } from '../findingId.js';
import * as cacheStorageClass from './cache-storage-class.js';
import * as cloudCredentialsRef from './cloud-credentials-ref.js';
import * as credentialsLossDropsNothing from './credentials-loss-drops-nothing.js';
import * as deterministicOutput from './deterministic-output.js';
import * as inClusterNoDelete from './in-cluster-no-delete.js';
import * as invalidSpecFatal from './invalid-spec-fatal.js';
import * as keyNaming from './key-naming.js';
import * as kubeconfigPublished from './kubeconfig-published.js';
import * as namespacedRequirement from './namespaced-requirement.js';
import * as noEarlyReady from './no-early-ready.js';
import * as noEmptySecretRef from './no-empty-secret-ref.js';
import * as nothingDropped from './nothing-dropped.js';
import * as providerConfigsReadKubeconfig from './provider-configs-read-kubeconfig.js';
import * as readinessCoverage from './readiness-coverage.js';
import * as swallowedFact from './swallowed-fact.js';
import * as regionFromIntent from './region-from-intent.js';
import * as xrConverges from './xr-converges.js';
import type { Rule, RuleContext, RuleMeta } from './types.js';

/**
 * Every rule module, in the order drift reports them. Each exports `meta` (what it is) and one
 * `check`, as an ESLint rule module exports `meta` and `create`.
 */
const MODULES = [
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
  regionFromIntent,
  invalidSpecFatal,
  swallowedFact,
  deterministicOutput,
  keyNaming,
] as const;

export const RULES: readonly Rule[] = MODULES.map(({ meta, check }) => ({ ...meta, check }));

/** What each rule says about itself, in RULES order: what `drift rules`, docs/rules.md and the contract are written from. */
export const RULE_METAS: readonly RuleMeta[] = MODULES.map(({ meta }) => meta);

/** Every rule over one cell; each violation becomes a contract finding. */
export function checkRules(context: RuleContext): Finding[] {
  const { provider, scenario } = context.skeleton;
  return RULES.flatMap((rule) =>
    rule.check(context).map((violation) => ({
      id: ruleId(rule.id, provider, violation.subject),
      type: 'rule' as const,
      class: rule.class,
      provider,
      scenario,
      subject: violation.subject,
      facet: rule.id,
      message: `${rule.id}: ${violation.message}`,
      ...(violation.value !== undefined ? { values: { [provider]: violation.value } } : {}),
      ...(violation.place !== undefined ? { where: [violation.place] } : {}),
      // What to do first, then why: the rule's own fix from its meta, as docs/rules.md lists it.
      hint: `${violation.fix ?? rule.examples.fix} Why: ${rule.rationale}`,
    })),
  );
}
