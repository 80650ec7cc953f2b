import { existsSync } from 'node:fs';
import path from 'node:path';
import { analyze, type Analysis, type AnalyzeOptions } from './analyze.js';
import { applyAccepted, type AcceptedEntry } from './compare/accepted.js';
import { compareAcross } from './compare/cross.js';
import type { Finding } from './compare/findings.js';
import { compareGolden } from './compare/golden.js';
import { checkRules } from './compare/rules/index.js';
import { packageFile } from './config/paths.js';
import type { Project } from './config/types.js';
import { readYamlFile } from './config/yamlFile.js';
import type { GoldenStore } from './goldens/store.js';

export const ACCEPTED_FILE = 'accepted.yaml';

export function acceptedPath(project: Project): string {
  return path.resolve(project.config.root, project.config.goldens, ACCEPTED_FILE);
}

export function loadAccepted(project: Project): AcceptedEntry[] {
  const file = acceptedPath(project);
  if (!existsSync(file)) return [];
  return readYamlFile<{ accepted: AcceptedEntry[] }>(file, packageFile('schemas/accepted.schema.json')).accepted;
}

export interface CheckResult {
  analysis: Analysis;
  findings: Finding[];
}

const isCI = () => Boolean(process.env.CI) && process.env.CI !== 'false' && process.env.CI !== '0';

/**
 * Everything `drift diff` checks: rendering errors, contract rules, goldens, divergences across
 * providers, then accepted entries. Staleness of accepted entries is judged only on an unfiltered run.
 */
export async function check(project: Project, store: GoldenStore, options: AnalyzeOptions & { filtered: boolean }): Promise<CheckResult> {
  const accepted = loadAccepted(project); // read before rendering: a bad file fails fast and changes nothing
  const analysis = await analyze(project, options);
  const findings: Finding[] = [...analysis.findings];
  const scenarios = new Map(project.scenarios.map((scenario) => [scenario.name, scenario]));
  for (const skeleton of analysis.skeletons) {
    if (skeleton.error) continue; // an error finding says it all; golden and rule findings would only echo it
    const scenario = scenarios.get(skeleton.scenario)!;
    const nondeterministic = analysis.nondeterministic.get(`${skeleton.provider}/${skeleton.scenario}`);
    findings.push(...checkRules({ skeleton, scenario, ...(nondeterministic ? { nondeterministic } : {}) }));
    findings.push(...compareGolden({ provider: skeleton.provider, scenario: skeleton.scenario, golden: store.read(skeleton.provider, skeleton.scenario), skeleton }));
  }
  for (const scenario of project.scenarios) {
    findings.push(
      ...compareAcross({
        scenario: scenario.name,
        skeletons: analysis.skeletons.filter((skeleton) => skeleton.scenario === scenario.name),
        pools: scenario.xr.nodePools.map((pool) => pool.name),
        ablated: scenario.ablate && options.gating !== false,
        ...(project.config.reference ? { reference: project.config.reference } : {}),
      }),
    );
  }
  const relativeFile = path.relative(project.config.root, acceptedPath(project));
  const judged = options.filtered ? applyAccepted(findings, accepted, { strict: false, file: relativeFile }).filter((f) => f.type !== 'accepted-stale') : applyAccepted(findings, accepted, { strict: isCI(), file: relativeFile });
  return { analysis, findings: judged };
}
