import type { Finding } from './findings.js';

/** What goldens/accepted.yaml entries match on, as a finding's id spells it. */
export type IdFacts = Pick<Finding, 'id' | 'type' | 'facet' | 'subject' | 'scenario' | 'provider'>;

/**
 * Reads back the facts a divergence, split or rule id encodes, so `drift accept` can tell whether an entry
 * already covers the finding without rendering anything:
 *   div:<scenario>:<subject>:<facet>:<provider>       (src/compare/cross.ts)
 *   split:<scenario>:<subject>:<facet>                (src/compare/cross.ts)
 *   rule:<rule-id>:<provider>/<scenario>:<subject>    (src/compare/rules/index.ts)
 * Scenario, provider, facet and rule names have no colon; a subject may.
 */
export function factsOfId(id: string): IdFacts | undefined {
  const parts = id.split(':');
  if (parts[0] === 'div' && parts.length >= 5) {
    return { id, type: 'divergence', scenario: parts[1]!, subject: parts.slice(2, -2).join(':'), facet: parts.at(-2)!, provider: parts.at(-1)! };
  }
  if (parts[0] === 'split' && parts.length >= 4) {
    return { id, type: 'split', scenario: parts[1]!, subject: parts.slice(2, -1).join(':'), facet: parts.at(-1)! };
  }
  const cell = parts[2]?.split('/');
  if (parts[0] === 'rule' && parts.length >= 4 && cell?.length === 2) {
    return { id, type: 'rule', facet: parts[1]!, provider: cell[0]!, scenario: cell[1]!, subject: parts.slice(3).join(':') };
  }
  return undefined;
}
