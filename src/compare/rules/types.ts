import type { Scenario } from '../../config/types.js';
import type { Skeleton } from '../../skeleton/types.js';

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

/** A contract invariant every provider must satisfy in every scenario. One module each, like ESLint rules. */
export interface Rule {
  id: string;
  description: string;
  /** Why the contract insists on it. */
  rationale: string;
  check(context: RuleContext): Violation[];
}

