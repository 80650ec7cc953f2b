import type { Scenario } from '../../config/types.js';
import type { Skeleton } from '../../skeleton/types.js';
import type { FindingClass } from '../findings.js';

export interface RuleContext {
  skeleton: Skeleton;
  scenario: Scenario;
  /** Where a second render of the same cell differed, if it did. */
  nondeterministic?: string;
}

export interface Violation {
  /** A composed key, status field or requirement name. */
  subject: string;
  message: string;
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
