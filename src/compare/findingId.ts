import type { Finding } from './findings.js';

/** What goldens/accepted.yaml entries match on, as a finding's id spells it. */
export type IdFacts = Pick<Finding, 'id' | 'type' | 'facet' | 'subject' | 'provider'>;

/**
 * What every finding id is made of: one shell word, copied from a hint into `drift accept ID` as it
 * is printed, without quotes (issue 37).
 */
export const ID_CHARACTERS = /^[A-Za-z0-9._/:{}@=+-]+$/;

/**
 * The spellings already made. Matching an accepted list spells the same few subjects once per entry
 * and finding (each stale entry's successors): 31,000 entries against 40 findings of a
 * `then[0] delete cluster` subject cost 3.9 s of CPU spelled each time, against 0.18 s before ids
 * were spelled at all.
 */
const spelled = new Map<string, string>();
const SPELLED_AT_MOST = 10_000;

/**
 * A part of an id (a subject, facet, provider, file or section) spelled in ID_CHARACTERS, readably and
 * the same every time: `then[0] delete cluster` → `then.0-delete-cluster`, `dict[str, Any]` →
 * `dict{str+Any}`. An index `[n]` becomes `.n`, other brackets braces, a comma `+`; quotes and `*` go;
 * any other run of whitespace or punctuation (with the `-` beside it) becomes one `-`, or nothing at
 * either end of a part. What is already a word stays as it is, and a colon stays: it divides the parts,
 * and a subject may hold one. No run crosses a colon, so spelling a whole id of an older drift gives the
 * id its parts spell now: what accepted entries written before are matched by.
 */
export function idToken(text: string): string {
  // Most parts are words already: one test, no copy.
  if (ID_CHARACTERS.test(text)) return text;
  let token = spelled.get(text);
  if (token === undefined) {
    // A pure function of its text: what it gave is kept, a bounded number, so no process grows with it.
    if (spelled.size >= SPELLED_AT_MOST) spelled.clear();
    spelled.set(text, (token = spell(text)));
  }
  return token;
}

function spell(text: string): string {
  return text
    .replace(/['"`*]/g, '')
    .replace(/\s*,\s*/g, '+')
    .replace(/\[(\d+)\]/g, '.$1')
    .replace(/\[/g, '{')
    .replace(/\]/g, '}')
    // Each run to replace becomes one space first (no other is left), so one at the end of a part can
    // go rather than dangle.
    .replace(/-*[^A-Za-z0-9._/:{}@=+-]+(?:-+[^A-Za-z0-9._/:{}@=+-]+)*-*/g, ' ')
    .replace(/^ | $/g, '')
    .replace(/ :|: /g, ':')
    .replace(/ /g, '-');
}

/** A finding id from its parts, each spelled by idToken, joined by colons: the one way ids are built. */
export const findingId = (...parts: readonly string[]) => parts.map(idToken).join(':');

/**
 * An id as this drift spells it, from one an older drift printed (spaces, brackets, commas in a
 * subject): unchanged when it is current. An accepted entry holding the old spelling still matches,
 * and is reported until `drift migrate` respells it (src/compare/acceptance.ts, src/pipeline/migrateIds.ts).
 */
export const respelledId = (id: string) => idToken(id);

/** The id of a divergence: one cause, whatever scenarios show it (src/compare/cross.ts, pinned.ts). */
export const divergenceId = (subject: string, facet: string, provider: string) => findingId('div', subject, facet, provider);
/** The id of a split: one facet without a convention, whatever scenarios show it. */
export const splitId = (subject: string, facet: string) => findingId('split', subject, facet);
/** The id of a rule violation: one rule, provider and subject, whatever scenarios show it. */
export const ruleId = (rule: string, provider: string, subject: string) => findingId('rule', rule, provider, subject);

/** The id of a tipped convention: what newcomer `provider` would form, tip or dissolve on a facet. */
export const tippedId = (subject: string, facet: string, provider: string) => findingId('tip', subject, facet, provider);

/**
 * The id of a cause: one place in a provider's code, `file:line` relative to the project root, that
 * several findings come from. Deterministic for the same code; it moves with the line, so accepting a
 * cause writes its consequences' ids, which name no line (src/cli/acceptCommand.ts).
 */
export const causeId = (provider: string, place: string) => findingId('cause', provider, place);

/** The provider and place a cause id names (`cause:<provider>:<file>:<line>`), or undefined when `id` is not one. */
export function placeOfCauseId(id: string): { provider: string; place: string } | undefined {
  const match = /^cause:([^:/\s]+):(.+:\d+)$/.exec(id);
  return match ? { provider: match[1]!, place: match[2]! } : undefined;
}

/**
 * Reads back the facts a divergence, split or rule id encodes (its subject as idToken spells it), so `drift accept` can tell whether an entry
 * already covers the finding without rendering anything:
 *   div:<subject>:<facet>:<provider>       (src/compare/cross.ts)
 *   split:<subject>:<facet>                (src/compare/cross.ts)
 *   rule:<rule-id>:<provider>:<subject>    (src/compare/rules/index.ts)
 * Provider, facet and rule names have no colon; a subject may. Ids name no scenario: one cause is one
 * finding, which lists the scenarios that show it.
 */
export function factsOfId(id: string): IdFacts | undefined {
  const parts = id.split(':');
  if (parts[0] === 'div' && parts.length >= 4) {
    return { id, type: 'divergence', subject: parts.slice(1, -2).join(':'), facet: parts.at(-2)!, provider: parts.at(-1)! };
  }
  if (parts[0] === 'split' && parts.length >= 3) {
    return { id, type: 'split', subject: parts.slice(1, -1).join(':'), facet: parts.at(-1)! };
  }
  if (parts[0] === 'rule' && parts.length >= 4 && !parts[2]!.includes('/')) {
    return { id, type: 'rule', facet: parts[1]!, provider: parts[2]!, subject: parts.slice(3).join(':') };
  }
  return undefined;
}

/** An id of drift before schemaVersion 2, which named the scenario, as `drift migrate` rewrites it. */
export interface LegacyId {
  id: string;
  scenario: string;
}

/**
 * The current id and the scenario an id of an older drift named, or undefined when `id` is not one:
 *   div:<scenario>:<subject>:<facet>:<provider>    → div:<subject>:<facet>:<provider>
 *   split:<scenario>:<subject>:<facet>             → split:<subject>:<facet>
 *   rule:<rule-id>:<provider>/<scenario>:<subject> → rule:<rule-id>:<provider>:<subject>
 * Both div forms can have the same number of parts (a subject may hold a colon), so the scenario is told
 * by name: `scenarios` are the project's.
 */
export function legacyIdOf(id: string, scenarios: ReadonlySet<string>): LegacyId | undefined {
  const parts = id.split(':');
  if (parts[0] === 'div' && parts.length >= 5 && scenarios.has(parts[1]!)) return { id: divergenceId(parts.slice(2, -2).join(':'), parts.at(-2)!, parts.at(-1)!), scenario: parts[1]! };
  if (parts[0] === 'split' && parts.length >= 4 && scenarios.has(parts[1]!)) return { id: splitId(parts.slice(2, -1).join(':'), parts.at(-1)!), scenario: parts[1]! };
  const cell = parts[2]?.split('/');
  if (parts[0] === 'rule' && parts.length >= 4 && cell?.length === 2) return { id: ruleId(parts[1]!, cell[0]!, parts.slice(3).join(':')), scenario: cell[1]! };
  return undefined;
}
