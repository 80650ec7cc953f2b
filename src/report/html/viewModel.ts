/**
 * The conformance page's view of a report: the one module that reads the report's shape. Everything
 * the page draws (the providers × facets matrix, each provider's section) is built here from a
 * Report, so a change of the report's shape is a change of this adapter alone; the renderers take
 * only what it returns.
 */
import { consequencesOf, scenariosOf, type Finding, type FindingClass } from '../../compare/findings.js';
import { isFacet, facetMeta } from '../../facets/registry.js';
import { compareText } from '../../util/objects.js';
import type { Report, Timeline } from '../model.js';
import { parseWhere, placeOf, type LinkBase, type Place } from './placeLinks.js';

/**
 * What a cell says about its provider on its row. convention: it holds the value most providers
 * share; split: the row has no convention and it holds one of its ways (`group`); divergent: it
 * differs from the convention; accepted: it differs and goldens/accepted.yaml says why; locked: it
 * breaks a locked convention; broken: it breaks a contract rule; changed: its skeleton differs from
 * its golden; error: it failed; clean: the row found nothing about it.
 */
export type CellKind = 'convention' | 'split' | 'divergent' | 'accepted' | 'locked' | 'broken' | 'changed' | 'error' | 'clean';

/** The cell kinds from least to most a reader must act on: a cell keeps the worst a row's findings give it. */
const RANK: Record<CellKind, number> = { clean: 0, convention: 1, split: 2, accepted: 3, divergent: 4, locked: 5, changed: 6, broken: 7, error: 8 };

/** Every kind in the legend's order, with its symbol and word: a cell is never told by color alone. */
export const CELL_KINDS: ReadonlyArray<{ kind: CellKind; symbol: string; word: string }> = [
  { kind: 'convention', symbol: '✓', word: 'convention' },
  { kind: 'split', symbol: '◆', word: 'split' },
  { kind: 'divergent', symbol: '✗', word: 'divergent' },
  { kind: 'accepted', symbol: '☑', word: 'accepted' },
  { kind: 'locked', symbol: '\u22a0', word: 'locked' },
  { kind: 'broken', symbol: '⚠', word: 'rule broken' },
  { kind: 'changed', symbol: 'Δ', word: 'golden changed' },
  { kind: 'error', symbol: '‼', word: 'error' },
  { kind: 'clean', symbol: '·', word: 'nothing found' },
];

export interface MatrixCell {
  provider: string;
  kind: CellKind;
  /** The provider's value in words; empty when the row holds none for it. */
  value: string;
  /** Splits: the way it holds, `A` for the largest. */
  group?: string;
  /** Accepted cells: the reason goldens/accepted.yaml gives. */
  reason?: string;
  place?: Place;
}

export interface MatrixRow {
  subject: string;
  /** The facet, the rule id, or `golden`. */
  facet: string;
  class: FindingClass;
  /** The scenarios that show it; empty when it is about the code or every scenario agrees. */
  scenarios: string[];
  cells: MatrixCell[];
}

export interface SubjectRows {
  subject: string;
  rows: MatrixRow[];
}

export interface FindingView {
  id: string;
  class: FindingClass;
  type: string;
  accepted?: string;
  message: string;
  scenarios: string[];
  places: Place[];
  fix: string;
  /** A cause's consequences, each in words with its id: what its one place in the code yields. */
  consequences?: Array<{ id: string; message: string }>;
}

/** One line of a golden diff, side by side: the golden's text on the left, the rendered one's on the right. */
export interface DiffRow {
  left?: string;
  right?: string;
  /** same: context on both sides; removed, added: a line only one side has; changed: both, different. */
  change: 'same' | 'removed' | 'added' | 'changed';
}

export interface GoldenDiff {
  subject: string;
  scenarios: string[];
  rows: DiffRow[];
}

/** What is asked of a provider (a convention or a rule) and whether it does it. */
export interface Expectation {
  subject: string;
  facet: string;
  met: 'met' | 'not met' | 'accepted';
  value: string;
}

/** A provider's reconcile steps: one row per composed key, one column per scenario. */
export interface TimelineView {
  scenarios: string[];
  /** converged[scenario]: the step, `never`, or absent when the cell has no timeline. */
  converged: Record<string, string>;
  rows: Array<{ key: string; role: string; steps: Record<string, string> }>;
}

export interface ProviderSection {
  provider: string;
  /** The worst cell state of its scenarios, in words. */
  state: string;
  findings: FindingView[];
  expect: Expectation[];
  timeline?: TimelineView;
  diffs: GoldenDiff[];
}

export interface PageModel {
  title: string;
  providers: string[];
  scenarios: string[];
  summary: Report['summary'];
  notes: string[];
  /** Findings about no provider (a stale acceptance, a stale contract file). */
  general: FindingView[];
  subjects: SubjectRows[];
  sections: ProviderSection[];
}

/** A value in words, structurally: strings as they are, lists and maps spelled out, never cut. */
export function words(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return `[${value.map(words).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([key, entry]) => `${key}: ${words(entry)}`)
      .join(', ')}}`;
  }
  return String(value);
}

const GROUP_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const groupName = (index: number) => (index < GROUP_LETTERS.length ? GROUP_LETTERS[index]! : `G${index + 1}`);

function facetClass(facet: string): FindingClass {
  return isFacet(facet) ? facetMeta(facet).class : 'behavioral';
}

/**
 * The matrix row a finding speaks for: a facet of its subject, a rule of its subject; golden changes
 * and errors gather under rows of their own (`golden`, `error`), one per thing that changed.
 */
function rowKey(finding: Finding): { subject: string; facet: string } {
  if (finding.type === 'golden' || finding.type === 'error') return { subject: finding.type, facet: finding.subject };
  return { subject: finding.subject, facet: finding.facet ?? finding.type };
}

class Rows {
  private readonly rows = new Map<string, MatrixRow>();
  constructor(private readonly providers: string[]) {}

  row(subject: string, facet: string, cls: FindingClass): MatrixRow {
    const id = `${subject}\u0000${facet}`;
    let row = this.rows.get(id);
    if (!row) {
      row = { subject, facet, class: cls, scenarios: [], cells: this.providers.map((provider) => ({ provider, kind: 'clean' as CellKind, value: '' })) };
      this.rows.set(id, row);
    }
    // A row is as serious as its most serious finding.
    if (cls === 'contract' || (cls === 'behavioral' && row.class === 'stylistic')) row.class = cls;
    return row;
  }

  /** Sets the provider's cell when `kind` is at least as serious as what it holds. */
  set(row: MatrixRow, provider: string, cell: Omit<MatrixCell, 'provider'>): void {
    const index = row.cells.findIndex((entry) => entry.provider === provider);
    if (index < 0) return;
    if (RANK[cell.kind] >= RANK[row.cells[index]!.kind]) row.cells[index] = { provider, ...cell };
  }

  all(): MatrixRow[] {
    return [...this.rows.values()];
  }
}

function placesOf(finding: Finding, links: LinkBase): Array<{ provider?: string; place: Place }> {
  return (finding.where ?? []).map((entry) => {
    const { provider, place } = parseWhere(entry);
    return { ...(provider !== undefined ? { provider } : {}), place: placeOf(place, links) };
  });
}

/** Report schema 3 may say where each holder of a way takes it (`<provider>: file:line`): provider → place. */
function holderPlaces(group: object): Map<string, string> {
  const where: unknown = (group as { where?: unknown }).where;
  const places = new Map<string, string>();
  if (!Array.isArray(where)) return places;
  for (const entry of where) {
    if (typeof entry !== 'string') continue;
    const { provider, place } = parseWhere(entry);
    if (provider !== undefined) places.set(provider, place);
  }
  return places;
}

function addFinding(rows: Rows, finding: Finding, links: LinkBase): void {
  const accepted = finding.accepted?.reason;
  const reason = accepted !== undefined ? { reason: accepted } : {};
  const key = rowKey(finding);
  const row = rows.row(key.subject, key.facet, finding.class);
  for (const scenario of scenariosOf(finding)) if (!row.scenarios.includes(scenario)) row.scenarios.push(scenario);
  const places = placesOf(finding, links);
  const own = places.find((entry) => entry.provider === undefined)?.place;
  const ownPlace = own ? { place: own } : {};
  const values = finding.values ?? {};
  if (finding.type === 'split') {
    (finding.groups ?? []).forEach((group, index) => {
      const holders = holderPlaces(group);
      for (const provider of group.providers) {
        const place = holders.get(provider);
        rows.set(row, provider, { kind: accepted !== undefined ? 'accepted' : 'split', value: words(group.value), group: groupName(index), ...reason, ...(place ? { place: placeOf(place, links) } : {}) });
      }
    });
    return;
  }
  // The providers that hold the convention, with the place of the one the finding names as its example.
  if (finding.consensus !== undefined || finding.type === 'divergence' || finding.type === 'style' || finding.type === 'locked') {
    for (const [provider, value] of Object.entries(values)) {
      if (provider === finding.provider) continue;
      const example = places.find((entry) => entry.provider === provider)?.place;
      rows.set(row, provider, { kind: 'convention', value: words(value), ...(example ? { place: example } : {}) });
    }
  }
  if (finding.provider === undefined) return;
  const kind: CellKind =
    accepted !== undefined ? 'accepted' : finding.type === 'error' ? 'error' : finding.type === 'golden' ? 'changed' : finding.type === 'locked' ? 'locked' : finding.class === 'contract' ? 'broken' : 'divergent';
  const value = finding.provider in values ? words(values[finding.provider]) : finding.type === 'golden' || finding.type === 'error' ? finding.message : words(values.actual ?? finding.message);
  rows.set(row, finding.provider, { kind, value, ...reason, ...ownPlace });
}

/**
 * What a finding says cell by cell: a cause's consequences (compare/findings.ts consequencesOf), each a
 * whole finding, accepted when the cause is.
 */
function partsOf(finding: Finding): Finding[] {
  return consequencesOf(finding).map((part) => (finding.accepted && !part.accepted ? { ...part, accepted: finding.accepted } : part));
}

/** Candidate conventions: every provider holds the value. */
function addCandidates(rows: Rows, report: Report): void {
  for (const candidate of report.candidates) {
    const row = rows.row(candidate.subject, candidate.facet, facetClass(candidate.facet));
    for (const provider of report.providers) rows.set(row, provider, { kind: 'convention', value: candidate.value });
  }
}

function subjectsOf(rows: MatrixRow[]): SubjectRows[] {
  const bySubject = new Map<string, MatrixRow[]>();
  for (const row of rows) {
    row.scenarios.sort(compareText);
    bySubject.set(row.subject, [...(bySubject.get(row.subject) ?? []), row]);
  }
  return [...bySubject.entries()]
    .sort(([a], [b]) => compareText(a, b))
    .map(([subject, list]) => ({ subject, rows: list.sort((a, b) => compareText(a.facet, b.facet)) }));
}

function findingView(finding: Finding, links: LinkBase): FindingView {
  return {
    id: finding.id,
    class: finding.class,
    type: finding.type,
    ...(finding.accepted ? { accepted: finding.accepted.reason } : {}),
    message: finding.message,
    scenarios: scenariosOf(finding),
    places: placesOf(finding, links).map(({ provider, place }) => (provider ? { ...place, text: `${provider}: ${place.text}` } : place)),
    fix: finding.hint,
    ...(finding.consequences ? { consequences: finding.consequences.map(({ id, message }) => ({ id, message })) } : {}),
  };
}

/**
 * A jest-diff text (golden → rendered) as side-by-side rows: a run of removed lines is paired with
 * the run of added lines after it, line by line; the two header lines are dropped.
 */
export function sideBySide(diff: string): DiffRow[] {
  const lines = diff.split('\n');
  const body = lines[0] === '- golden' && lines[1] === '+ rendered' ? lines.slice(2) : lines;
  const rows: DiffRow[] = [];
  let removed: string[] = [];
  let added: string[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(removed.length, added.length); i += 1) {
      const left = removed[i];
      const right = added[i];
      rows.push({ ...(left !== undefined ? { left } : {}), ...(right !== undefined ? { right } : {}), change: left === undefined ? 'added' : right === undefined ? 'removed' : 'changed' });
    }
    removed = [];
    added = [];
  };
  for (const line of body) {
    if (line.startsWith('-')) {
      if (added.length) flush();
      removed.push(line.slice(2));
    } else if (line.startsWith('+')) added.push(line.slice(2));
    else {
      flush();
      if (line === '' && rows.length === 0) continue;
      const text = line.startsWith('  ') ? line.slice(2) : line;
      rows.push({ left: text, right: text, change: 'same' });
    }
  }
  flush();
  return rows;
}

function timelineView(timelines: Record<string, Timeline> | undefined, scenarios: string[]): TimelineView | undefined {
  if (!timelines) return undefined;
  const shown = scenarios.filter((scenario) => timelines[scenario]);
  const keys = new Map<string, { key: string; role: string; steps: Record<string, string> }>();
  const converged: Record<string, string> = {};
  for (const scenario of shown) {
    const timeline = timelines[scenario]!;
    converged[scenario] = timeline.converged === null ? 'never' : `${timeline.converged}${timeline.xrReady ? '' : ' (XR not Ready)'}`;
    for (const entry of timeline.resources) {
      const row = keys.get(entry.key) ?? { key: entry.key, role: entry.role, steps: {} };
      const ready = entry.ready === null ? 'never ready' : `ready ${entry.ready}`;
      row.steps[scenario] = `${entry.appears} \u2192 ${ready}${entry.dropped !== undefined ? `, dropped ${entry.dropped}` : ''}`;
      keys.set(entry.key, row);
    }
  }
  return { scenarios: shown, converged, rows: [...keys.values()].sort((a, b) => compareText(a.key, b.key)) };
}

const STATE_WORDS: Record<string, string> = { clean: 'clean', split: 'split', divergent: 'divergent', changed: 'golden changed', contract: 'contract broken', error: 'error' };
const STATE_RANK: Record<string, number> = { clean: 0, split: 1, divergent: 2, changed: 3, contract: 4, error: 5 };

function stateOf(report: Report, provider: string): string {
  let worst = 'clean';
  const states = [...report.scenarios.map((scenario) => report.cells[scenario]?.[provider]), report.sources?.[provider]];
  for (const state of states) if (state !== undefined && (STATE_RANK[state] ?? 6) > (STATE_RANK[worst] ?? 6)) worst = state;
  return STATE_WORDS[worst] ?? worst;
}

function expectationsOf(rows: MatrixRow[], provider: string): Expectation[] {
  const out: Expectation[] = [];
  for (const row of rows) {
    const cell = row.cells.find((entry) => entry.provider === provider);
    if (!cell) continue;
    const met = cell.kind === 'convention' ? 'met' : cell.kind === 'accepted' ? 'accepted' : cell.kind === 'divergent' || cell.kind === 'locked' || cell.kind === 'broken' ? 'not met' : undefined;
    if (met === undefined) continue;
    // What is asked: the value the others share where this provider differs.
    const asked = met === 'met' ? cell.value : (row.cells.find((entry) => entry.kind === 'convention')?.value ?? cell.value);
    out.push({ subject: row.subject, facet: row.facet, met, value: asked });
  }
  return out;
}

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The page's model of a report. Pure; the order is the report's, then by subject and facet. */
export function pageModel(report: Report, links: LinkBase): PageModel {
  const rows = new Rows(report.providers);
  addCandidates(rows, report);
  const all = [...report.findings, ...report.accepted];
  for (const finding of all.flatMap(partsOf)) if (finding.provider !== undefined || finding.type === 'split') addFinding(rows, finding, links);
  const subjects = subjectsOf(rows.all());
  const flat = subjects.flatMap((subject) => subject.rows);
  const sections = report.providers.map((provider) => {
    const own = all.filter((finding) => finding.provider === provider);
    const timeline = timelineView(report.timelines?.[provider], report.scenarios);
    return {
      provider,
      state: stateOf(report, provider),
      findings: own.map((finding) => findingView(finding, links)),
      expect: expectationsOf(flat, provider),
      ...(timeline ? { timeline } : {}),
      diffs: own.flatMap(partsOf).filter((finding) => finding.diff !== undefined && !finding.accepted).map((finding) => ({ subject: finding.subject, scenarios: scenariosOf(finding), rows: sideBySide(finding.diff!) })),
    };
  });
  return {
    title: `drift: ${count(report.providers.length, 'provider')} \u00d7 ${count(report.scenarios.length, 'scenario')}`,
    providers: [...report.providers],
    scenarios: [...report.scenarios],
    summary: report.summary,
    notes: [...(report.notes ?? [])],
    general: all.filter((finding) => finding.provider === undefined && finding.type !== 'split').map((finding) => findingView(finding, links)),
    subjects,
    sections,
  };
}
