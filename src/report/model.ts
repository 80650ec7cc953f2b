import { consequencesOf, scenariosOf, sortFindings, type Finding } from '../compare/findings.js';
import { groupByPlace } from '../compare/grouping.js';

/** A candidate convention as a report shows it: a facet every provider agrees on, the value in words. */
export interface Candidate {
  facet: string;
  subject: string;
  value: string;
}

export type CellState = 'clean' | 'split' | 'divergent' | 'changed' | 'contract' | 'error';

/**
 * Why a changed file matters to `drift diff --changed`: a provider's own file (its function's
 * folder, its adapter, its XRD, its goldens) renders that provider; any other kind can change every
 * provider's result and forces a full run.
 */
export type ChangeKind = 'function' | 'adapter' | 'xrd' | 'golden' | 'scenario' | 'config' | 'accepted' | 'conventions' | 'shared' | 'drift';

export interface ChangedFile {
  /** Relative to the project root, `/`-separated. */
  file: string;
  kind: ChangeKind;
  /** The provider whose own file it is; absent when the file can change every provider's result. */
  provider?: string;
}

/** What `drift diff --changed` compared with, and what it therefore rendered. */
export interface ChangedRun {
  /** The ref as given or chosen (`main`), and the merge base of HEAD with it. */
  ref: string;
  base: string;
  /** full: every provider rendered; partial: only `rendered`, the others from their goldens; none: nothing rendered. */
  run: 'full' | 'partial' | 'none';
  rendered: string[];
  /** The changed files that matter, sorted by path. */
  files: ChangedFile[];
  /** How many changed files drift reads nothing from (documentation, CI, other code). */
  ignored: number;
}

/** One composed key in one cell's reconcile: the step it appeared, the step it was first marked ready (null: never). */
export interface TimelineEntry {
  key: string;
  role: string;
  appears: number;
  ready: number | null;
  readyBy?: 'composed' | 'observed';
  /** The step a converging world dropped it, if it did. */
  dropped?: number;
}

/** A rendered cell's reconcile steps (report/timeline.ts): what the conformance page draws per provider. */
export interface Timeline {
  /** The step the world converged at, or null when it never did. */
  converged: number | null;
  xrReady: boolean;
  resources: TimelineEntry[];
}

export interface Report {
  /** Bumped when the JSON shape changes incompatibly; see schemas/report.schema.json. */
  schemaVersion: 3;
  tool: 'drift';
  providers: string[];
  scenarios: string[];
  /** cells[scenario][provider] */
  cells: Record<string, Record<string, CellState>>;
  /** The matrix's `source` row: each outlined provider's code (style findings have no scenario). */
  sources?: Record<string, CellState>;
  /** With `--changed`: what changed since which commit, and which providers were rendered for it. */
  changed?: ChangedRun;
  /** Findings that fail the run: several that one place in a provider's code causes are one `cause`, listing them. */
  findings: Finding[];
  /** Findings goldens/accepted.yaml accepts, with their reasons. */
  accepted: Finding[];
  /** Facets every provider agrees on (at least three), the value in words: what `drift lock` can lock. */
  candidates: Candidate[];
  /** What the run says beside its findings, e.g. a new provider whose goldens are not written yet; never fails the run. */
  notes?: string[];
  /** timelines[provider][scenario] of the cells this run rendered: the conformance page's reconcile steps. */
  timelines?: Record<string, Record<string, Timeline>>;
  /** findings counts causes once; consequences counts what they hold (each finding of a cause, and every other finding). */
  summary: { findings: number; consequences: number; contract: number; behavioral: number; stylistic: number; accepted: number; clean: boolean };
}

// A split blames nobody, so it ranks below anything that names this provider.
const RANK: Record<CellState, number> = { clean: 0, split: 1, divergent: 2, changed: 3, contract: 4, error: 5 };

/**
 * The providers a split colors: those on a way smaller than the largest. A split blames nobody, and one
 * about everyone (every provider on some way) would otherwise mark every cell of its scenario.
 */
function minorityOf(finding: Finding): Set<string> {
  const sizes = (finding.groups ?? []).map((group) => group.providers.length);
  const largest = Math.max(0, ...sizes);
  return new Set((finding.groups ?? []).filter((group) => group.providers.length < largest).flatMap((group) => group.providers));
}

/** The providers whose cell a finding colors among `row`'s. */
function targetsOf(finding: Finding, row: Record<string, CellState>): string[] {
  if (finding.type === 'split') return [...minorityOf(finding)].filter((provider) => provider in row);
  return finding.provider && finding.provider in row ? [finding.provider] : [];
}

function stateOf(finding: Finding): CellState {
  if (finding.type === 'error') return 'error';
  if (finding.class === 'contract') return 'contract';
  if (finding.type === 'golden') return 'changed';
  if (finding.type === 'split') return 'split';
  return 'divergent';
}

/** Gathers findings into the report every format renders. Pure; deterministic order. */
export function buildReport(providers: string[], scenarios: string[], all: Finding[], options: { sources?: string[]; changed?: ChangedRun; candidates?: readonly Candidate[]; notes?: readonly string[]; timelines?: Report['timelines'] } = {}): Report {
  const findings = sortFindings(groupByPlace(all.filter((finding) => !finding.accepted)));
  // What was accepted for one reason at one place reads as one cause too.
  const accepted = sortFindings(groupByPlace(all.filter((finding) => finding.accepted)));
  // Cells are colored by what each consequence of a cause is about, as if it stood alone.
  const parts = findings.flatMap(consequencesOf);
  const cells: Report['cells'] = {};
  for (const scenario of scenarios) cells[scenario] = Object.fromEntries(providers.map((provider) => [provider, 'clean' as CellState]));
  for (const finding of parts) {
    // One cause shown by several scenarios colors each of their rows.
    for (const scenario of scenariosOf(finding)) {
      const row = cells[scenario];
      if (!row) continue;
      const state = stateOf(finding);
      for (const provider of targetsOf(finding, row)) if (RANK[state] > RANK[row[provider]!]) row[provider] = state;
    }
  }
  // Findings about a provider's code belong to no scenario: they color its `source` cell.
  const sources = options.sources ? Object.fromEntries(providers.filter((p) => options.sources!.includes(p)).map((p) => [p, 'clean' as CellState])) : undefined;
  if (sources) {
    for (const finding of parts) {
      if (scenariosOf(finding).length) continue;
      // A style split is about every provider's code, as a scenario's split is about its cells.
      const state = stateOf(finding);
      for (const provider of targetsOf(finding, sources)) if (RANK[state] > RANK[sources[provider]!]) sources[provider] = state;
    }
  }
  const count = (cls: Finding['class']) => findings.filter((finding) => finding.class === cls).length;
  return {
    schemaVersion: 3,
    tool: 'drift',
    providers,
    scenarios,
    cells,
    ...(sources ? { sources } : {}),
    ...(options.changed ? { changed: options.changed } : {}),
    findings,
    accepted,
    candidates: [...(options.candidates ?? [])],
    ...(options.notes?.length ? { notes: [...options.notes] } : {}),
    ...(options.timelines && Object.keys(options.timelines).length ? { timelines: options.timelines } : {}),
    summary: {
      findings: findings.length,
      consequences: parts.length,
      contract: count('contract'),
      behavioral: count('behavioral'),
      stylistic: count('stylistic'),
      accepted: accepted.length,
      clean: findings.length === 0,
    },
  };
}
