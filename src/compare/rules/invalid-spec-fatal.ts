import type { RuleContext, RuleMeta, Violation } from './types.js';

/** What `drift rules`, docs/rules.md and the contract say about this rule. */
export const meta: RuleMeta = {
  id: 'invalid-spec-fatal',
  description: 'A spec the function cannot compose ends the reconcile with a Fatal result, never a normal answer.',
  rationale:
    'Crossplane applies nothing from a Fatal result and keeps what exists; a normal answer is applied, so a function that returns less (or nothing) for a spec it rejects deletes the resources it composed before, and one that composes anyway creates colliding ones.',
  class: 'contract',
  appliesWhen:
    'Ablated scenarios that converge: drift sends the converged request again with the XR\'s first node pool named `system`, the name of the system pool every function injects. It is sent even where the XRD refuses that name: validation on write never reaches an XR stored before the XRD changed, and what the function answers decides what Crossplane deletes.',
  examples: {
    violation: 'The handler catches the invalid-spec error and returns the response without a result: Crossplane deletes every composed resource.',
    fix: "Answer the error with a Fatal result (`response.fatal(rsp, str(err))`) where it is caught, and return the response without composing.",
  },
};

export function check({ spec }: RuleContext): Violation[] {
  const probe = spec?.invalidSpec;
  if (!probe || probe.stopped) return [];
  const answered = probe.composed === 0 ? 'an empty desired state (Crossplane would delete every composed resource)' : `${probe.composed} composed resources`;
  return [{ subject: 'fatal', message: `answered ${probe.probe} with ${answered} and no Fatal result` }];
}
