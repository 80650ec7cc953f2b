import type { RuleContext, RuleMeta, Violation } from './types.js';

/** What `drift rules`, docs/rules.md and the contract say about this rule. */
export const meta: RuleMeta = {
  id: 'invalid-spec-fatal',
  description: 'A spec the function refuses ends the reconcile with a Fatal result, never with an empty answer.',
  rationale:
    'Crossplane applies nothing from a Fatal result and keeps what exists; an answer without one is applied, so a function that catches the error of a spec it refuses and returns the response empty deletes every resource it composed before: one bad edit of the XR destroys the cluster.',
  class: 'contract',
  appliesWhen:
    'Ablated scenarios that converge: drift sends the converged request again with the XR\'s first node pool named `system`, the name of the system pool every function injects. It is sent even where the XRD refuses that name: validation on write never reaches an XR stored before the XRD changed, and what the function answers decides what Crossplane deletes. A function that composes that spec anyway (leaving the name to its XRD) is not judged here; one that answers it with nothing composed and no Fatal result is.',
  examples: {
    violation: 'The handler catches the invalid-spec error and returns the response without a result: Crossplane deletes every composed resource.',
    fix: "Answer the error with a Fatal result (`response.fatal(rsp, str(err))`) where it is caught, and return the response without composing.",
  },
};

export function check({ spec }: RuleContext): Violation[] {
  const probe = spec?.invalidSpec;
  // Composing anyway leaves the spec to the XRD; an empty answer is what deletes.
  if (!probe || probe.stopped || probe.composed > 0) return [];
  return [{ subject: 'fatal', message: `answered ${probe.probe} with an empty desired state and no Fatal result: Crossplane would delete every composed resource` }];
}
