import type { Scenario } from '../../config/types.js';
import type { Skeleton } from '../../skeleton/types.js';
import type { SwallowedFact } from '../../outline/types.js';
import type { FindingClass } from '../findings.js';

export interface RuleContext {
  skeleton: Skeleton;
  scenario: Scenario;
  /** Where a second render of the same cell differed, if it did. */
  nondeterministic?: string;
  /** What the spec probes saw (src/pipeline/specProbes.ts), where they ran. */
  spec?: SpecProbes;
  /** The provider's swallowed errors around observed reads, from its outline, each with its place (`providers/gke/function/composer.py:12`). */
  swallowed?: Array<SwallowedFact & { place: string }>;
}

/**
 * What the spec probes saw (src/pipeline/specProbes.ts; region-from-intent and invalid-spec-fatal read it).
 * Each probe sends the converged step's request once more with the XR changed, as the intent probes
 * do: what the answer then holds is the function's doing.
 */
export interface SpecProbes {
  /**
   * The XR's region (the adapter's `values.region`) swapped for another, everywhere in the request: the
   * composed keys whose body still holds the old one (and `status`, when the XR's status does), with the fields that hold it.
   */
  region?: { value: string; probe: string; kept: Record<string, string[]> };
  /**
   * The XR's first pool named like the system pool the function injects (`system`): a spec it cannot
   * compose. `stopped` when it answered with a Fatal result (or failed the call: nothing is applied
   * either way); `composed`, how many resources the answer still held.
   */
  invalidSpec?: { probe: string; stopped: boolean; composed: number };
}

export interface Violation {
  /** A composed key, status field or requirement name. */
  subject: string;
  message: string;
  /** The provider's offending value, where the place in its code is found by it (a literal it keeps). */
  value?: unknown;
  /** The place in the provider's code, when the rule read it from the source itself. */
  place?: string;
  /** The fix in the provider's own names, where the violation knows them; else the rule's `examples.fix`. */
  fix?: string;
}

/**
 * What a rule is, as people and tools read it (ESLint's `meta`): `drift rules`, docs/rules.md's rule list
 * and the generated contract are all written from this, so nothing lists rules by hand.
 */
export interface RuleMeta {
  /** The rule module's file name without `.ts`; findings and accepted entries name it. */
  id: string;
  /** The class of the findings it raises. */
  class: FindingClass;
  /** One line: what every provider must do. */
  description: string;
  /** Why the contract insists on it. */
  rationale: string;
  /** In which scenarios and for which resources the check looks at all. */
  appliesWhen: string;
  /** A short violation and the fix for it, in the terms of the contract. */
  examples: { violation: string; fix: string };
}

/** A contract invariant every provider must satisfy in every scenario: a module's `meta` with its `check`. */
export interface Rule extends RuleMeta {
  check(context: RuleContext): Violation[];
}
