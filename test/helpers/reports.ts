/** Synthetic findings and reports for the report formats' tests: deterministic, no rendering involved. */
import type { Finding, FindingClass } from '../../src/compare/findings.js';
import { buildReport, type Report } from '../../src/report/model.js';

export const PROVIDERS = ['eks', 'gke', 'nebius'];
export const SCENARIOS = ['default', 'gpu-pool', 'multi-zone', 'scale-to-zero'];

/** A golden-style diff of `lines` changed lines. */
export function syntheticDiff(lines: number, seed = 0): string {
  const out = ['- golden', '+ rendered', '', '  spec:', '    forProvider:'];
  for (let i = 0; i < lines; i += 1) out.push(`-     nodeCount: ${seed + i}`, `+     nodeCount: ${seed + i + 1}`);
  return out.join('\n');
}

/** `count` findings spread over the providers × scenarios and the three classes, each with a diff or values. */
export function syntheticFindings(count: number, options: { diffLines?: number } = {}): Finding[] {
  const classes: FindingClass[] = ['contract', 'behavioral', 'stylistic'];
  const findings: Finding[] = [];
  for (let i = 0; i < count; i += 1) {
    const provider = PROVIDERS[i % PROVIDERS.length]!;
    const scenario = SCENARIOS[Math.floor(i / PROVIDERS.length) % SCENARIOS.length]!;
    const cls = classes[i % classes.length]!;
    const base = { provider, scenario, class: cls, hint: `if the change is intended, run \`drift update --provider ${provider} --scenario ${scenario}\`` };
    if (i % 2 === 0) {
      findings.push({ ...base, id: `golden:${provider}/${scenario}:resources.pool-${i}`, type: 'golden', subject: `resources.pool-${i}`, message: `resources.pool-${i} changed`, diff: syntheticDiff(options.diffLines ?? 6, i) });
    } else {
      findings.push({
        ...base,
        id: `divergence:${scenario}:pool-${i}.spec.nodeCount`,
        type: cls === 'contract' ? 'rule' : 'divergence',
        subject: `pool-${i}.spec.nodeCount`,
        message: `${provider} sets nodeCount to ${i}, the others to ${i + 1}`,
        values: Object.fromEntries(PROVIDERS.map((p) => [p, p === provider ? i : i + 1])),
        consensus: i + 1,
      });
    }
  }
  return findings;
}

/** A report over PROVIDERS × SCENARIOS with `count` findings and `accepted` accepted ones. */
export function syntheticReport(count: number, accepted = 0, options: { diffLines?: number } = {}): Report {
  const findings = syntheticFindings(count + accepted, options);
  for (const finding of findings.slice(count)) finding.accepted = { reason: `known difference ${finding.id}: the provider's API requires it` };
  return buildReport(PROVIDERS, SCENARIOS, findings);
}

export function cleanReport(): Report {
  return buildReport(PROVIDERS, SCENARIOS, []);
}
