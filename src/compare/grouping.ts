/**
 * One cause is one finding. Divergences, splits and rule violations are judged scenario by scenario,
 * and their ids name no scenario: the same id in several scenarios is one cause (one `if` removed gives
 * one finding, not one per scenario it shows in). This step, after judging and after accepted entries
 * were matched scenario by scenario, merges the findings that share an id into one listing its
 * scenarios. An accepted finding never merges with an unaccepted one, nor with one accepted for another
 * reason: what is accepted in one scenario only stays apart from what fails in the others. Pure.
 */
import { compareText } from '../util/objects.js';
import type { Finding, FindingType } from './findings.js';

/** The finding types judged per scenario whose ids drop the scenario. */
const PER_SCENARIO: ReadonlySet<FindingType> = new Set(['divergence', 'split', 'rule']);

const keyOf = (finding: Finding) => `${finding.id}\u0000${finding.accepted ? `accepted\u0000${finding.accepted.reason}` : 'open'}`;

/**
 * The findings with those of one cause merged, in the order each cause first appears. A merged finding
 * is its first scenario's (values, convention and hint as that scenario shows them), with `scenarios`
 * instead of `scenario` and, when several show it, its message saying how many.
 */
export function groupByCause(findings: readonly Finding[]): Finding[] {
  const groups = new Map<string, Finding[]>();
  const order: Array<Finding | string> = [];
  for (const finding of findings) {
    if (!PER_SCENARIO.has(finding.type) || finding.scenario === undefined) {
      order.push(finding);
      continue;
    }
    const key = keyOf(finding);
    const group = groups.get(key);
    if (group) group.push(finding);
    else {
      groups.set(key, [finding]);
      order.push(key);
    }
  }
  return order.map((item) => (typeof item === 'string' ? merged(groups.get(item)!) : item));
}

function merged(group: readonly Finding[]): Finding {
  const scenarios = [...new Set(group.map((finding) => finding.scenario!))].sort(compareText);
  const first = group.find((finding) => finding.scenario === scenarios[0])!;
  const { scenario: _scenario, ...rest } = first;
  // One scenario is told by where the finding is (provider/scenario); several, by the message too
  // (how many: `scenarios` lists which, and reports print them).
  return { ...rest, scenarios, message: scenarios.length > 1 ? `${first.message} (in ${scenarios.length} scenarios)` : first.message };
}
