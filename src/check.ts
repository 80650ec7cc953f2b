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
import { GoldenStore } from './goldens/store.js';
import { parse } from 'yaml';
import { SKELETON_VERSION, type Skeleton } from './skeleton/types.js';
import { isCI } from './util/ci.js';
import { isObject } from './util/objects.js';
import { judgeProjectSources, outlineSources, readProjectSources, type OutlinedSource } from './pipeline/sources.js';

export function acceptedPath(project: Project): string {
  return GoldenStore.of(project).acceptedFile;
}

export function loadAccepted(project: Project): AcceptedEntry[] {
  const file = acceptedPath(project);
  if (!existsSync(file)) return [];
  return readYamlFile<{ accepted: AcceptedEntry[] }>(file, packageFile('schemas/accepted.schema.json')).accepted;
}

export interface CheckResult {
  analysis: Analysis;
  findings: Finding[];
  /** The providers whose source drift outlined, with their outlines and formatter reports. */
  outlined: OutlinedSource[];
}


/**
 * Everything `drift diff` checks: rendering errors, contract rules, goldens, divergences across
 * providers, then accepted entries. Staleness of accepted entries is judged only on an unfiltered run.
 */
/** A committed golden as a stand-in skeleton for a provider this run did not render. */
function goldenSkeleton(store: GoldenStore, provider: string, scenario: string): Skeleton | undefined {
  const text = store.read(provider, scenario);
  if (text === undefined) return undefined;
  try {
    const parsed = parse(text) as unknown;
    return isObject(parsed) && parsed.skeleton === SKELETON_VERSION && !parsed.error ? (parsed as unknown as Skeleton) : undefined;
  } catch {
    return undefined;
  }
}

export interface CheckOptions extends AnalyzeOptions {
  /** Whether --provider or --scenario narrowed the run. */
  filtered: boolean;
  /** Providers the run did not render: their goldens stand in for them in the consensus. */
  others?: string[];
}

export async function check(project: Project, store: GoldenStore, options: CheckOptions): Promise<CheckResult> {
  const accepted = loadAccepted(project); // read before rendering: a bad file fails fast and changes nothing
  const scenarios = new Map(project.scenarios.map((scenario) => [scenario.name, scenario]));
  const perCell = new Map<string, Finding[]>();
  // Rules and goldens judge one skeleton at a time, so they run while other providers still render.
  const onSkeleton = (skeleton: Skeleton, nondeterministic: string | undefined) => {
    if (skeleton.error) return; // an error finding says it all; golden and rule findings would only echo it
    const scenario = scenarios.get(skeleton.scenario)!;
    perCell.set(`${skeleton.provider}/${skeleton.scenario}`, [
      ...checkRules({ skeleton, scenario, ...(nondeterministic ? { nondeterministic } : {}) }),
      ...compareGolden({ provider: skeleton.provider, scenario: skeleton.scenario, golden: store.read(skeleton.provider, skeleton.scenario), skeleton }),
    ]);
  };
  // The providers' code is read before anything renders (source drift cannot read stops the run),
  // then outlined and formatted while the functions render.
  const outlining = outlineSources(await readProjectSources(project));
  const analysis = await analyze(project, { ...options, onSkeleton });
  const outlined = await outlining;
  // Providers finish in any order; findings keep matrix order.
  const findings: Finding[] = [...analysis.findings, ...analysis.skeletons.flatMap((skeleton) => perCell.get(`${skeleton.provider}/${skeleton.scenario}`) ?? [])];
  const rendered = new Set(project.adapters.map((adapter) => adapter.name));
  for (const scenario of project.scenarios) {
    // A filtered run still compares with every provider: the others through their committed goldens.
    const standIns = (options.others ?? []).flatMap((provider) => goldenSkeleton(store, provider, scenario.name) ?? []);
    const across = compareAcross({
      scenario: scenario.name,
      skeletons: [...analysis.skeletons.filter((skeleton) => skeleton.scenario === scenario.name), ...standIns],
      pools: scenario.xr.nodePools.map((pool) => pool.name),
      ablated: scenario.ablate && options.gating !== false,
      established: new Set(standIns.map((skeleton) => skeleton.provider)),
    });
    // Splits blame nobody; divergences count only for the providers this run rendered.
    findings.push(...across.filter((finding) => finding.provider === undefined || rendered.has(finding.provider)));
  }
  // Style findings have no scenario: judged once, on every skeleton the run knows.
  const standInSkeletons = (options.others ?? []).flatMap((provider) => project.scenarios.flatMap((scenario) => goldenSkeleton(store, provider, scenario.name) ?? []));
  findings.push(...judgeProjectSources({ project, outlined, skeletons: [...analysis.skeletons, ...standInSkeletons], golden: (provider) => store.readOutline(provider), others: options.others ?? [] }));
  const relativeFile = path.relative(project.config.root, acceptedPath(project));
  const judged = options.filtered ? applyAccepted(findings, accepted, { strict: false, file: relativeFile }).filter((f) => f.type !== 'accepted-stale') : applyAccepted(findings, accepted, { strict: isCI(), file: relativeFile });
  return { analysis, findings: judged, outlined };
}
