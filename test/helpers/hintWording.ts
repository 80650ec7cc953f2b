/**
 * What a hint must never say: the wording slips issue 37 found in reports (a doubled "or accept it",
 * "NodeGroup..", ".; accept"), a count in words the finding's own values contradict ("Every other
 * provider does it this way" where one of the others does not), and a stale entry's advice to accept
 * what the run's own change made (the regression itself). One problem per line, empty when none.
 */
import type { Finding } from '../../src/compare/findings.js';

/** Two periods that are not the `"..."` placeholder of a `--reason`. */
const DOUBLED_PERIOD = /(?<!\.)\.\.(?!\.)/;
/** A sentence's end run into the next clause: `.;` `.,` `;.` `,.` (an abbreviation's "e.g.," aside). */
const RUN_ON = /(?<!\be\.g|\bi\.e)\.[;,]|[;,]\./;

export function hintProblems(finding: Pick<Finding, 'id' | 'hint' | 'provider' | 'values' | 'consensus'>, options: { regressions?: readonly string[] } = {}): string[] {
  const { id, hint } = finding;
  const problems: string[] = [];
  if ((hint.match(/or accept (it|its own way|the split)/g) ?? []).length > 1) problems.push(`${id}: offers the accept twice: ${hint}`);
  if (DOUBLED_PERIOD.test(hint)) problems.push(`${id}: a doubled period: ${hint}`);
  if (RUN_ON.test(hint)) problems.push(`${id}: a clause run into a period: ${hint}`);
  if (/\s[.;,]/.test(hint.replaceAll('"..."', ''))) problems.push(`${id}: punctuation after a space: ${hint}`);
  if (/every other provider/i.test(hint) && finding.values && finding.provider !== undefined) {
    const others = Object.entries(finding.values).filter(([provider]) => provider !== finding.provider);
    const text = JSON.stringify(finding.consensus);
    if (others.some(([, value]) => JSON.stringify(value) !== text)) problems.push(`${id}: says "every other provider" where not every other provider follows the convention: ${hint}`);
  }
  // A stale entry is not replaced by an entry for what this run's change made: that is the regression.
  for (const regression of options.regressions ?? []) if (finding.id.startsWith('accepted-stale:') && hint.includes(`drift accept '${regression}'`)) problems.push(`${id}: suggests accepting ${regression}, which the change made: ${hint}`);
  return problems;
}
