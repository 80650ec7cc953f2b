import type { RuleContext, RuleMeta, Violation } from './types.js';

/** What `drift rules`, docs/rules.md and the contract say about this rule. */
export const meta: RuleMeta = {
  id: 'deterministic-output',
  description: 'Rendering the same input twice gives the same answer.',
  rationale: 'A function whose answer changes without a cause makes Crossplane update resources forever, and makes drift unable to compare it.',
  class: 'contract',
  appliesWhen: 'Every scenario: drift renders each step a second time and compares.',
  examples: {
    violation: 'Each render stamps a timestamp or a random suffix into a label.',
    fix: 'Derive every value from the request (XR, observed state, required resources) alone.',
  },
};

export function check({ nondeterministic }: RuleContext): Violation[] {
  return nondeterministic ? [{ subject: 'render', message: `two renders of the same input differ (first at ${nondeterministic})` }] : [];
}
