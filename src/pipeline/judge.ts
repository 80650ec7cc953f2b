import { applyAccepted, type AcceptedEntry } from '../compare/accepted.js';
import { compareAcross } from '../compare/cross.js';
import type { Finding } from '../compare/findings.js';
import type { Project } from '../config/types.js';
import type { Skeleton } from '../skeleton/types.js';
import type { CellResult } from './cell.js';

export interface JudgeInput {
  project: Project;
  /** The run's cells, in matrix order. */
  cells: CellResult[];
  /** Skeletons of providers the run did not render (their committed goldens), by scenario. */
  standIns: ReadonlyMap<string, Skeleton[]>;
  /** Whether the gating analysis ran, so `gatedOn` is comparable. */
  gating: boolean;
  accepted: AcceptedEntry[];
  /** accepted.yaml as findings name it. */
  acceptedFile: string;
  /** Whether --provider or --scenario narrowed the run: staleness of accepted entries is then not judged. */
  filtered: boolean;
  /** Whether a stale entry fails the run (under CI). */
  strict: boolean;
}

/**
 * The run's findings, from its cells' values: each cell's own findings in matrix order, then the
 * comparison across providers scenario by scenario, then the accepted entries over all of them.
 * Pure: values in, findings out.
 */
export function judgeRun({ project, cells, standIns, gating, accepted, acceptedFile, filtered, strict }: JudgeInput): Finding[] {
  const findings = cells.flatMap((cell) => cell.findings);
  const rendered = new Set(project.adapters.map((adapter) => adapter.name));
  for (const scenario of project.scenarios) {
    // A filtered run still compares with every provider: the others through their committed goldens,
    // as the established providers whose conventions the rendered ones are judged against.
    const established = standIns.get(scenario.name) ?? [];
    const across = compareAcross({
      scenario: scenario.name,
      skeletons: [...cells.filter((cell) => cell.scenario === scenario.name).map((cell) => cell.skeleton), ...established],
      pools: scenario.xr.nodePools.map((pool) => pool.name),
      ablated: scenario.ablate && gating,
      established: new Set(established.map((skeleton) => skeleton.provider)),
    });
    // Splits blame nobody; divergences count only for the providers this run rendered.
    findings.push(...across.filter((finding) => finding.provider === undefined || rendered.has(finding.provider)));
  }
  if (filtered) return applyAccepted(findings, accepted, { strict: false, file: acceptedFile }).filter((finding) => finding.type !== 'accepted-stale');
  return applyAccepted(findings, accepted, { strict, file: acceptedFile });
}
