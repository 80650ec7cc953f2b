import path from 'node:path';
import type { FunctionPool } from '../functions/pool.js';
import type { Finding } from '../compare/findings.js';
import type { CandidateConvention } from '../compare/locked.js';
import { obsoleteFinding } from '../compare/golden.js';
import { checkRules } from '../compare/rules/index.js';
import type { Project, Scenario } from '../config/types.js';
import { acceptedPath, loadAccepted } from '../goldens/acceptedStore.js';
import { ConventionStore } from '../goldens/conventionStore.js';
import type { GoldenEnvironment } from '../goldens/environment.js';
import type { GoldenState } from '../goldens/state.js';
import type { Skeleton } from '../skeleton/types.js';
import type { CellResult } from './cell.js';
import type { OnEvent } from './events.js';
import { goldensOf, goldenStateFor, isFiltered, type Filters } from './goldens.js';
import { judgeRun, rootOf } from './judge.js';
import type { RuleContext } from '../compare/rules/types.js';
import { tippedConventions } from '../compare/tipped.js';
import { committedGoldens } from '../git/changes.js';
import { runProject, type RunResult } from './run.js';
import { outlineSources, readProjectSources, standInPlaces, type KnownTexts, type OutlinedSource } from './sourcesRun.js';

export interface DiffInput {
  /** The whole configuration; `project` is the selection the filters made of it. */
  full: Project;
  project: Project;
  filters: Filters;
  /** Where goldens are read: the project's goldens folder unless a test gives another. */
  env?: GoldenEnvironment;
  onEvent?: OnEvent;
  /** `--changed`: a provider without goldens fails as under CI, never gets the new-provider note. */
  changed?: boolean;
  /** `drift mcp`'s kept function processes (functions/pool.ts). */
  pool?: FunctionPool;
  /** What the verdict's key already made (pipeline/diffVerdict.ts): the providers' answer keys, the source texts it read, and git's committed goldens when it asked. */
  known?: { keys: ReadonlyMap<string, string | undefined>; texts: KnownTexts; committed?: { set: Set<string> | undefined } };
}

export interface DiffResult {
  run: RunResult;
  findings: Finding[];
  /** Facets every compared provider agrees on (at least three): what `drift lock` can lock. */
  candidates: CandidateConvention[];
  goldens: GoldenState;
  /** The providers whose source drift outlined, with their outlines and formatter reports. */
  outlined: OutlinedSource[];
  /** Temporary files an interrupted write had left in the goldens folder, now removed. */
  swept: string[];
  /** What the report says beside its findings (a new provider whose goldens are not written yet). */
  notes: string[];
  /** Every cell and every outline came from the caches: the findings are a function of cached values alone (pipeline/diffVerdict.ts). */
  fromCache: boolean;
}

/** The providers the filters name that have no golden at all: no scenario's, no outline. */
function newProviders(full: Project, filters: Filters, goldens: GoldenState): string[] {
  return filters.providers.filter((provider) => goldens.readOutline(provider) === undefined && full.scenarios.every((scenario) => goldens.standIn(provider, scenario.name) === undefined));
}

type SwallowedAt = NonNullable<RuleContext['swallowed']>;

/** Each outlined provider's swallowed errors around observed reads, placed relative to the project root (rule swallowed-fact). */
function swallowedByProvider(project: Project, outlined: readonly OutlinedSource[]): Map<string, SwallowedAt> {
  return new Map(outlined.map(({ adapter, result }) => [adapter.name, (result.swallowed ?? []).map((fact) => ({ ...fact, place: `${rootOf(project, adapter)}/${fact.file}:${fact.line}` }))]));
}

/**
 * A rendered cell judged on its own: its errors, then the contract rules, then its golden, counted
 * matched or not as it is compared. A cell that did not render keeps its error finding alone: rules and
 * goldens would only echo it.
 */
function judgeCell(cell: CellResult, scenario: Scenario, goldens: GoldenState, swallowed: SwallowedAt | undefined): CellResult {
  if (cell.skeleton.error) return cell;
  const { skeleton, nondeterministic, spec } = cell;
  const rules = checkRules({ skeleton, scenario, ...(nondeterministic ? { nondeterministic } : {}), ...(spec ? { spec } : {}), ...(swallowed?.length ? { swallowed } : {}) });
  return { ...cell, findings: [...cell.findings, ...rules, ...goldens.match(skeleton)] };
}

/**
 * Everything `drift diff` checks: every cell rendered, then each judged on its own (rendering errors,
 * contract rules, its golden), then divergences across providers, then accepted entries, then goldens
 * nothing produces any more.
 */
export async function diffProject({ full, project, filters, env: given, onEvent, changed = false, pool, known }: DiffInput): Promise<DiffResult> {
  // Read before rendering: a bad file fails fast and changes nothing.
  const accepted = loadAccepted(project);
  const locked = ConventionStore.of(project).load();
  const env = goldensOf(project, given);
  const swept = env.sweep();
  const goldens = goldenStateFor(full, env, filters);
  // The providers' code is read before anything renders (source drift cannot read stops the run),
  // then outlined and formatted while the functions render.
  const read = await readProjectSources(project, known?.texts);
  const outlining = outlineSources(read, project, onEvent);
  // Awaited after the renders: an error of its own (a query of drift's that does not compile) is
  // rethrown there, exit 2, and must not end the process first as an unhandled rejection.
  outlining.catch(() => undefined);
  // The providers not rendered are judged by their goldens; their code on disk only says where their
  // examples are (file:line), read while the functions render. It never fails: what cannot be read is not shown.
  const renderedProviders = new Set(project.adapters.map((adapter) => adapter.name));
  const placing = standInPlaces(full.adapters.filter((adapter) => !renderedProviders.has(adapter.name)), project, known?.texts);
  const rendered = await runProject(project, { ...(onEvent ? { onEvent } : {}), ...(pool ? { pool } : {}), ...(known ? { keys: known.keys } : {}) });
  const outlined = await outlining;
  // Judged in matrix order once every cell is back: the rules and the golden comparison are pure, and
  // judging them while others rendered bought nothing measurable (bench/HISTORY.md).
  const scenarios = new Map(project.scenarios.map((scenario) => [scenario.name, scenario]));
  const swallowed = swallowedByProvider(project, outlined);
  const run: RunResult = { ...rendered, cells: rendered.cells.map((cell) => judgeCell(cell, scenarios.get(cell.scenario)!, goldens, swallowed.get(cell.provider))) };
  const shown = await placing;
  const others = full.adapters.map((adapter) => adapter.name).filter((name) => !renderedProviders.has(name));
  const standIns = new Map<string, Skeleton[]>(project.scenarios.map((scenario) => [scenario.name, others.flatMap((provider) => goldens.standIn(provider, scenario.name) ?? [])]));
  const { findings, candidates } = judgeRun({
    project,
    cells: run.cells,
    standIns,
    gating: true,
    accepted,
    acceptedFile: path.relative(project.config.root, acceptedPath(project)),
    filtered: isFiltered(filters),
    strict: project.policy.run.strict,
    sources: { outlined, golden: (provider) => goldens.readOutline(provider), others, shown },
    locked,
  });
  // What the newcomers do to the established providers (src/compare/tipped.ts). With -p, told where the
  // newcomer works: a full run's view with it and without it. In a full run, a provider whose goldens
  // are not committed yet is a newcomer: what exists only with it is one decision, not N findings on
  // providers nobody touched.
  const acceptedFile = path.relative(project.config.root, acceptedPath(project));
  const golden = (provider: string) => goldens.readOutline(provider);
  const view = { gating: true, accepted, acceptedFile, filtered: true, strict: false, locked, view: 'full' as const };
  const newcomers = others.length >= 2 ? newProviders(full, filters, goldens) : [];
  if (newcomers.length > 0) {
    const reported = new Set(findings.map((finding) => finding.id));
    const withNewcomers = judgeRun({ ...view, project, standIns, cells: run.cells, sources: { outlined, golden, others, shown } }).findings;
    // The established providers among themselves are judged only when the newcomer's view blames one of
    // them for something its own run does not report: usually it blames nobody, and that judgement is skipped.
    const candidates = tippedConventions({ newcomers, withNewcomers, without: [], reported });
    if (candidates.findings.length > 0) {
      const without = judgeRun({ ...view, project: { ...project, adapters: [] }, standIns, cells: [], sources: { outlined: [], golden, others, shown } }).findings;
      findings.push(...tippedConventions({ newcomers, withNewcomers, without, reported }).findings);
    }
  } else if (others.length === 0 && !isFiltered(filters)) {
    const committed = known?.committed ? known.committed.set : await committedGoldens(path.resolve(project.config.root, project.config.goldens), [...renderedProviders], project.env);
    const uncommitted = committed ? [...renderedProviders].filter((name) => !committed.has(name)).sort() : [];
    if (uncommitted.length > 0 && committed!.size >= 2) {
      const stays = (name: string) => !uncommitted.includes(name);
      const without = judgeRun({
        ...view,
        project: { ...project, adapters: project.adapters.filter((adapter) => stays(adapter.name)) },
        standIns,
        cells: run.cells.filter((cell) => stays(cell.provider)),
        sources: { outlined: outlined.filter((source) => stays(source.adapter.name)), golden, others, shown },
      }).findings;
      const tipped = tippedConventions({ newcomers: uncommitted, withNewcomers: findings, without, reported: new Set() });
      findings.splice(0, findings.length, ...findings.filter((finding) => !tipped.consumed.has(finding.id)), ...tipped.findings);
    }
  }
  for (const obsolete of goldens.obsolete()) findings.push(obsoleteFinding({ ...obsolete, file: goldens.name(obsolete.file) }));
  // A provider named with -p that has no golden at all is new: its goldens are the last step of the
  // loop (drift update -p, which also regenerates the contract), not a finding. Never under CI or
  // --changed, where a missing golden fails.
  const fresh = project.policy.run.strict || changed ? [] : newProviders(full, filters, goldens);
  const drafts = placeholderNotes(project);
  const fromCache = read.every((source) => source.cached !== undefined) && rendered.providers.every((provider) => !provider.error && provider.cachedCells === project.scenarios.length);
  if (fresh.length === 0) return { run, findings, candidates, goldens, outlined, swept, notes: drafts, fromCache };
  const isFresh = (finding: Finding) => finding.provider !== undefined && fresh.includes(finding.provider) && finding.id.startsWith('golden-missing:');
  const notes = [`new provider: goldens not written yet (${fresh.join(', ')}). When the rest is clean, \`drift update ${fresh.map((name) => `-p ${name}`).join(' ')}\` writes its goldens and the contract; commit them with the function.`];
  return { run, findings: findings.filter((finding) => !isFresh(finding)), candidates, goldens, outlined, swept, notes: [...drafts, ...notes], fromCache };
}

/** One note per rendered adapter that still holds a draft's placeholders: its findings may be the adapter's. */
function placeholderNotes(project: Project): string[] {
  return project.adapters.flatMap((adapter) => {
    const found = adapter.placeholders ?? [];
    if (!found.length) return [];
    const file = path.relative(project.config.root, adapter.file);
    const shown = found.slice(0, 3).map((placeholder) => `${file}:${placeholder.line} (${placeholder.path})`).join(', ') + (found.length > 3 ? ` and ${found.length - 3} more` : '');
    return [`adapter draft: ${shown} still hold TODO placeholders; fill them in first, since what ${adapter.name} is judged on may be the adapter's, not its function's.`];
  });
}
