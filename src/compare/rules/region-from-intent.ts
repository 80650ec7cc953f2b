import type { RuleContext, RuleMeta, Violation } from './types.js';

/** What `drift rules`, docs/rules.md and the contract say about this rule. */
export const meta: RuleMeta = {
  id: 'region-from-intent',
  description: "Every composed resource takes the region from the XR's spec, never from a literal in the function.",
  rationale:
    'A region written into the function puts every cluster in that region whatever the XR asks for, and keeps each existing one in sync with the literal, not with its spec: the change looks right in the golden of the one region it was written for.',
  class: 'contract',
  appliesWhen:
    "Ablated scenarios of providers whose adapter names the region (`values.region`): drift sends the converged request again with the XR's region swapped for another one, everywhere (the XR, observed state, required resources), and looks for the old region in what the function then composes and in the XR's status it publishes.",
  examples: {
    violation: 'The subnet keeps region "us-central1" when the XR asks for another region: the function wrote the region as a literal.',
    fix: "Read the region from the XR's spec (the value the function already reads for its other resources) where the literal is written.",
  },
};

export function check({ spec }: RuleContext): Violation[] {
  const region = spec?.region;
  if (!region) return [];
  return Object.entries(region.kept).map(([key, paths]) => ({
    subject: key,
    message: `${key} keeps the region "${region.value}" at ${paths.join(', ')} when the XR's region is "${region.probe}": a literal, not the XR's region`,
    value: region.value,
    fix: `${key === 'status' ? "Publish the XR's status" : `Compose ${key}`} with the region the XR's spec gives (the value the function reads from spec for its other resources) where "${region.value}" is written.`,
  }));
}
