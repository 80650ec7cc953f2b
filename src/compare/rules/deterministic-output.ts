import type { Rule } from './types.js';

export const deterministicOutput: Rule = {
  id: 'deterministic-output',
  description: 'Rendering the same input twice gives the same answer.',
  rationale: 'A function whose answer changes without a cause makes Crossplane update resources forever, and makes drift unable to compare it.',
  check({ nondeterministic }) {
    return nondeterministic ? [{ subject: 'render', message: `two renders of the same input differ (first at ${nondeterministic})` }] : [];
  },
};
