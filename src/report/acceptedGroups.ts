import { scenariosOf, type Finding } from '../compare/findings.js';

/** Accepted findings that say the same thing about the same provider for the same reason, across scenarios. */
export interface AcceptedGroup {
  provider: string | undefined;
  message: string;
  reason: string;
  scenarios: string[];
  ids: string[];
}

/** Groups accepted findings so a difference accepted once reads once, not once per scenario. Order is kept. */
export function groupAccepted(findings: Finding[]): AcceptedGroup[] {
  const groups = new Map<string, AcceptedGroup>();
  for (const finding of findings) {
    const reason = finding.accepted?.reason ?? '';
    const key = JSON.stringify([finding.provider, finding.message, reason]);
    const group = groups.get(key) ?? { provider: finding.provider, message: finding.message, reason, scenarios: [], ids: [] };
    group.scenarios.push(...scenariosOf(finding));
    group.ids.push(finding.id);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** `converge`, `every scenario`, or `3 scenarios: a, b, c` for a group's place, given how many ran. */
export function describeScenarios(scenarios: string[], total: number): string {
  if (scenarios.length === 1) return scenarios[0]!;
  if (scenarios.length === 0 || (scenarios.length === total && total > 1)) return 'every scenario';
  return `${scenarios.length} scenarios: ${scenarios.join(', ')}`;
}
