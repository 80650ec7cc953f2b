import type { RuleContext, RuleMeta, Violation } from './types.js';

/** What `drift rules`, docs/rules.md and the contract say about this rule. */
export const meta: RuleMeta = {
  id: 'no-empty-secret-ref',
  description: 'No status.secrets entry and no Secret reference has an empty name or key.',
  rationale: 'An empty reference is published as if it were real, and consumers fail far from the cause.',
  class: 'contract',
  appliesWhen: 'Every scenario; every status.secrets entry and every Secret a composed resource reads.',
  examples: {
    violation: 'status.secrets publishes an identity entry with name "" before the identity is known.',
    fix: 'Publish the entry only once its name and key are known.',
  },
};

export function check({ skeleton }: RuleContext): Violation[] {
  const violations = skeleton.status.secrets
    .filter((entry) => !entry.name || !entry.key)
    .map((entry) => ({ subject: 'status.secrets', message: `the ${entry.type || '(untyped)'} entry has an empty ${entry.name ? 'key' : 'name'}` }));
  for (const [key, r] of Object.entries(skeleton.resources)) {
    for (const read of r.reads ?? []) {
      const [ref, secretKey] = read.split(':');
      if (!ref || ref.endsWith('/') || !secretKey) violations.push({ subject: key, message: `${key} reads an incomplete Secret reference ${read}` });
    }
  }
  return violations;
}
