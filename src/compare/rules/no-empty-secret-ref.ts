import type { Rule } from './types.js';

export const noEmptySecretRef: Rule = {
  id: 'no-empty-secret-ref',
  description: 'No status.secrets entry and no Secret reference has an empty name or key.',
  rationale: 'An empty reference is published as if it were real, and consumers fail far from the cause.',
  check({ skeleton }) {
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
  },
};
