/**
 * The pull-request report: a sticky comment found by its hidden marker, summary matrix first, then
 * details per class and per provider/scenario, kept under a character budget by dropping detail in
 * priority order. Every string that comes from a function, a scenario or a config file is escaped:
 * nothing in it can close a table cell or a fence, start HTML, or add a link.
 */
import type { Finding, FindingClass } from '../compare/findings.js';
import { type CellState, type Report } from './model.js';
import { collapseMissingGoldens, consequenceWords, headlineOf, placeWords, tippedLine, wayLines } from './findingWords.js';
import { describeScenarios, groupAccepted, type AcceptedGroup } from './acceptedGroups.js';
import { describeChanged } from './changedText.js';

/** GitHub rejects an issue comment longer than this many characters. */
export const GITHUB_COMMENT_LIMIT = 65_536;
/** The default budget: under GitHub's limit with room to spare. */
export const DEFAULT_BUDGET = 60_000;
/** The smallest budget the renderer accepts: room for the marker, the title and the notes. */
export const MIN_BUDGET = 2_000;
export const DEFAULT_REPORT_ID = 'drift';

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$/;
const MARKER_LINE = /^<!-- drift-report: ([A-Za-z0-9][A-Za-z0-9._/-]{0,99}) -->$/;

export interface MarkdownOptions {
  /** Names the sticky comment: reports with different ids get different comments. Default `drift`. */
  id?: string;
  /** Maximum length of the result in UTF-16 code units (never fewer than characters). Default 60,000. */
  budget?: number;
  /**
   * A line of drift's own Markdown under the title, such as where the comment's verdict comes from.
   * Trusted: never pass text from a report or a function here.
   */
  note?: string;
}

/** The hidden first line that lets `drift comment` find its own comment again. */
export function markerFor(id: string = DEFAULT_REPORT_ID): string {
  if (!ID_PATTERN.test(id)) throw new Error(`invalid report id ${JSON.stringify(id)}: use letters, digits, '.', '_', '-' and '/' (at most 100)`);
  return `<!-- drift-report: ${id} -->`;
}

/** The marker line a drift markdown report starts with, or undefined when the text is not one. */
export function readMarker(text: string): string | undefined {
  const first = text.replace(/^\uFEFF/, '').trimStart().split(/\r?\n/, 1)[0] ?? '';
  return MARKER_LINE.test(first.trimEnd()) ? first.trimEnd() : undefined;
}

// ---------------------------------------------------------------------------------------------
// Escaping. Untrusted text never reaches the output except through one of these.

const LINE_BREAKS = /\r\n|[\r\n\u2028\u2029\u0085\v\f]/g;

/** One line of text: line breaks become spaces, NUL becomes U+FFFD. */
function oneLine(text: string): string {
  return text.replace(LINE_BREAKS, ' ').replaceAll('\u0000', '\uFFFD');
}

/**
 * Text for HTML contexts (inside `<summary>`): entities for the five HTML specials, one line, and no
 * mentions or references (GitHub links those in HTML text too).
 */
export function escapeHtml(text: string): string {
  return breakAutolinks(oneLine(text).replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!));
}

const INLINE_SPECIALS = /[\\`*_[\]()!|~#<>&]/g;

/**
 * What GitHub turns into links without any Markdown syntax: `http://`, `https://`, `www.`, e-mail
 * addresses and @mentions (`@`), and issue or pull-request references: `#123`, `owner/repo#123` and
 * `GH-123`. A backslash does not stop a reference; a zero-width space after its start does.
 */
const AUTOLINK_STARTS = /https?|www|@|#(?=\d)|\bgh-(?=\d)/gi;
const ZERO_WIDTH_SPACE = '\u200B';

function breakAutolinks(text: string): string {
  return text.replace(AUTOLINK_STARTS, (start) => `${start}${ZERO_WIDTH_SPACE}`);
}

/**
 * Text for Markdown inline contexts, table cells included: one line; `<`, `>` and `&` as entities
 * (no HTML, no entity tricks); every character that could start emphasis, a link, an image, code,
 * strikethrough or a table cell backslash-escaped; and a zero-width space after `http`, `https`,
 * `www`, `@` and the start of a reference, so GitHub links no URL, www. host, e-mail address, mention,
 * issue or pull request.
 */
export function escapeInline(text: string): string {
  return breakAutolinks(oneLine(text).replace(INLINE_SPECIALS, (ch) => (ch === '<' ? '&lt;' : ch === '>' ? '&gt;' : ch === '&' ? '&amp;' : `\\${ch}`)));
}

function longestRun(text: string, ch: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === ch ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/**
 * A code span holding `text` literally: delimited by more backticks than any run inside, padded when
 * the text starts or ends with a backtick or a space. With `table`, pipes are escaped so the span
 * cannot end a table cell (a pipe always follows an odd number of backslashes, which every GFM
 * implementation reads as an escaped pipe).
 */
export function codeSpan(text: string, options: { table?: boolean } = {}): string {
  let content = oneLine(text);
  if (content === '') content = ' ';
  const ticks = '`'.repeat(longestRun(content, '`') + 1);
  const pad = /^[` ]|[` ]$/.test(content) && content.trim() !== '' ? ' ' : '';
  if (options.table) content = escapeTablePipes(content);
  return `${ticks}${pad}${content}${pad}${ticks}`;
}

function escapeTablePipes(text: string): string {
  return text.replace(/(\\*)\|/g, (_match, slashes: string) => `${slashes}${slashes.length % 2 === 0 ? '\\' : '\\\\'}|`);
}

/**
 * A fenced code block holding `text` literally: the fence is longer than any backtick run inside, so
 * no line of the text can close it.
 */
export function fence(text: string, info = ''): string {
  const content = text.replace(/\r\n?/g, '\n').replaceAll('\u0000', '\uFFFD').replace(/\n+$/, '');
  const ticks = '`'.repeat(Math.max(3, longestRun(content, '`') + 1));
  return `${ticks}${info}\n${content}\n${ticks}`;
}

/**
 * Drift's own sentences put commands between single backticks (`drift update --provider eks`); show
 * those as code, safely, and escape everything else.
 */
export function inlineWithCode(text: string): string {
  const line = oneLine(text);
  const out: string[] = [];
  let last = 0;
  for (const match of line.matchAll(/(?<!`)`([^`]+)`(?!`)/g)) {
    out.push(escapeInline(line.slice(last, match.index)), codeSpan(match[1]!));
    last = match.index + match[0].length;
  }
  out.push(escapeInline(line.slice(last)));
  return out.join('');
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

// ---------------------------------------------------------------------------------------------
// Pieces.

const CELL: Record<CellState, string> = {
  clean: '✅ clean',
  changed: '📝 changed',
  split: '⚖️ split',
  divergent: '🔀 divergent',
  contract: '⛔ contract',
  error: '💥 error',
};

/** A state a newer drift's report may carry (see schemas/report.schema.json) is shown by its name. */
const cellLabel = (state: string) => (Object.hasOwn(CELL, state) ? CELL[state as CellState] : `❔ ${escapeInline(state)}`);

const CLASSES: readonly FindingClass[] = ['contract', 'behavioral', 'stylistic'];
const CLASS_TITLE: Record<FindingClass, string> = { contract: '⛔ Contract', behavioral: '⚠️ Behavioral', stylistic: '🎨 Stylistic' };
const TYPE_LABEL: Partial<Record<string, string>> = {
  golden: '📝 golden',
  divergence: '🔀 divergence',
  cause: '🎯 cause',
  tipped: '🗳️ tipped convention',
  split: '⚖️ split',
  rule: '⛔ rule',
  error: '💥 error',
  locked: '🔒 locked convention',
  'accepted-stale': '🗑️ stale acceptance',
  'contract-stale': '📜 stale contract',
};
/** A type a newer drift's report may carry is shown by its name (own keys only: never `constructor`). */
const typeLabel = (type: string) => (Object.hasOwn(TYPE_LABEL, type) ? TYPE_LABEL[type]! : escapeInline(type));
const DROP_ADVICE = "run `drift diff` locally or see the job's artifact";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Who and in which scenarios, said once: `gke / converge`, `all providers (every scenario)`. */
const placeIn = (finding: Finding, total: number) => placeWords(finding, total, 'all providers', ' / ');

function clipDiff(diff: string, max: number, what = 'diff'): string {
  if (diff.length <= max) return diff;
  const kept = diff.slice(0, max);
  const cut = kept.lastIndexOf('\n');
  const body = cut > 0 ? kept.slice(0, cut) : kept;
  const dropped = diff.slice(body.length).split('\n').filter(Boolean).length;
  return `${body}\n… ${plural(dropped, 'more line')} (${what} shortened)`;
}

/**
 * A message's first line, and the lines after it: an error finding carries the function's output
 * there, which belongs in a code block, not flattened into the sentence.
 */
function splitMessage(message: string): { headline: string; more?: string } {
  const lineBreak = /\r\n|[\r\n\u2028\u2029\u0085\v\f]/.exec(message);
  if (!lineBreak) return { headline: message };
  const more = message.slice(lineBreak.index + lineBreak[0].length);
  const headline = message.slice(0, lineBreak.index).trimEnd();
  return more.trim() === '' ? { headline } : { headline, more };
}

/**
 * A finding in a few lines: what, where and the fix; then, in words, a divergence's value against the
 * convention (in its hint), a split's ways (one line each, with their places) or a cause's consequences (one line
 * each, with their ids); a golden's diff or an error's output in a block. The JSON report has the rest.
 */
function findingDetail(finding: Finding, maxDiff: number, total: number): string {
  const { more } = splitMessage(finding.message);
  const headline = headlineOf(finding);
  const subject = finding.type === 'cause' ? (finding.where?.[0] ?? finding.subject) : finding.subject;
  const parts = [
    `**${typeLabel(finding.type)}** ${codeSpan(clip(subject, 500))}: ${inlineWithCode(clip(headline, 2_000))}<br>\n` +
      `<sub>→ ${inlineWithCode(clip(finding.hint, 2_000))}${finding.where?.length && finding.type !== 'cause' ? ` · at ${finding.where.map((place) => codeSpan(clip(place, 300))).join(', ')}` : finding.where && finding.where.length > 1 ? ` · follows it: ${finding.where.slice(1).map((place) => codeSpan(clip(place, 300))).join(', ')}` : ''} · id ${codeSpan(clip(finding.id, 500))}</sub>`,
  ];
  if (more !== undefined) parts.push(fence(clipDiff(more, maxDiff, 'output'), 'text'));
  const tipped = tippedLine(finding);
  const lines = [
    ...wayLines(finding).map((way) => escapeInline(clip(way, 1_000))),
    ...(tipped ? [escapeInline(clip(tipped, 1_000))] : []),
    ...(finding.consequences ?? []).map((consequence) => `${escapeInline(clip(consequenceWords(consequence, finding, total), 1_000))} · ${codeSpan(clip(consequence.id, 500))}`),
  ];
  if (lines.length) parts.push(lines.map((line) => `- ${line}`).join('\n'));
  if (finding.diff) parts.push(fence(clipDiff(finding.diff, maxDiff), 'diff'));
  return parts.join('\n\n');
}

/** `<details>` per provider/scenario, in the (sorted) order of the findings; `details[i]` renders findings[i]. */
function detailBlocks(findings: Finding[], details: string[], total: number): string {
  const groups: number[][] = [];
  findings.forEach((finding, i) => {
    const previous = groups.at(-1);
    const first = previous ? findings[previous[0]!]! : undefined;
    if (previous && first && placeIn(first, total) === placeIn(finding, total)) previous.push(i);
    else groups.push([i]);
  });
  return groups
    .map((group) => {
      const summary = `<summary>${escapeHtml(placeIn(findings[group[0]!]!, total))}: ${plural(group.length, 'finding')}</summary>`;
      return ['<details>', summary, '', group.map((i) => details[i]).join('\n\n'), '', '</details>'].join('\n');
    })
    .join('\n\n');
}

function compactLine(finding: Finding, total: number): string {
  const place = finding.type === 'cause' && finding.where?.[0] ? ` at ${codeSpan(clip(finding.where[0], 300))}` : '';
  return `- ${escapeInline(placeIn(finding, total))}: ${inlineWithCode(clip(headlineOf(finding), 300))}${place} ${codeSpan(clip(finding.id, 200))}`;
}

function acceptedLine(group: AcceptedGroup, scenarios: number): string {
  const id = codeSpan(clip(group.ids[0]!, 200)) + (group.ids.length > 1 ? ` and ${group.ids.length - 1} more` : '');
  const place = escapeInline(`${group.provider ?? 'all'} (${describeScenarios(group.scenarios, scenarios)})`);
  return `- ${place}: ${inlineWithCode(clip(group.message, 300))} ${id}<br>\n  accepted: ${inlineWithCode(clip(group.reason, 500))}`;
}

function matrixLines(report: Report, rows: number): string[] {
  const header = `| scenario |${report.providers.map((provider) => ` ${escapeInline(provider)} |`).join('')}`;
  const rule = `| --- |${report.providers.map(() => ' --- |').join('')}`;
  const body = report.scenarios.slice(0, rows).map((scenario) => {
    const row = report.cells[scenario] ?? {};
    return `| ${escapeInline(scenario)} |${report.providers.map((provider) => ` ${cellLabel(row[provider] ?? 'clean')} |`).join('')}`;
  });
  // The providers' code: one row, whatever scenarios ran.
  const sources = report.sources;
  const source = sources ? [`| *source* |${report.providers.map((provider) => ` ${sources[provider] ? CELL[sources[provider]] : '–'} |`).join('')}`] : [];
  return [header, rule, ...body, ...source];
}

function title(report: Report): string {
  const { summary } = report;
  if (summary.clean) return '## ✅ drift: clean';
  const counts = CLASSES.filter((cls) => summary[cls] > 0).map((cls) => `${summary[cls]} ${cls}`);
  return `## ❌ drift: ${plural(summary.findings, 'finding')} (${counts.join(', ')})`;
}

// ---------------------------------------------------------------------------------------------
// Assembly under the budget.

interface Layout {
  /** How many findings, in report order (contract, behavioral, stylistic), keep their details. */
  detailed: number;
  /** How many one-line entries (findings without details, then accepted findings) are listed. */
  listed: number;
  /** How many matrix rows are shown; -1 hides the matrix. */
  matrixRows: number;
  /** How many candidate conventions are listed (the first thing dropped for room: they fail nothing). */
  candidates: number;
}

interface ClassPieces {
  cls: FindingClass;
  findings: Finding[];
  /** Where the class starts in report.findings. */
  offset: number;
  details: string[];
  compact: string[];
}

interface Pieces {
  marker: string;
  note: string | undefined;
  /** With --changed: what was compared with and rendered, escaped. */
  changed: string | undefined;
  classes: ClassPieces[];
  accepted: string[];
}

function assemble(report: Report, pieces: Pieces, layout: Layout): string {
  const { summary } = report;
  const out: string[] = [pieces.marker, title(report), '', ...(pieces.note ? [pieces.note, ''] : [])];
  const scope = `${plural(report.providers.length, 'provider')} × ${plural(report.scenarios.length, 'scenario')}`;
  if (pieces.changed) out.push(pieces.changed, '');
  for (const note of report.notes ?? []) out.push(`> **Note:** ${note}`, '');
  out.push(summary.clean ? `No findings: every provider × scenario cell is clean (${scope})${summary.accepted ? `; ${summary.accepted} accepted` : ''}.` : `${scope}${summary.accepted ? ` · ${summary.accepted} accepted` : ''}`);

  if (layout.matrixRows >= 0 && report.scenarios.length > 0 && report.providers.length > 0) {
    out.push('', ...matrixLines(report, layout.matrixRows));
    const hidden = report.scenarios.length - layout.matrixRows;
    if (hidden > 0) out.push('', `*${plural(hidden, 'more scenario')} not shown in the matrix.*`);
  }

  const kept = (piece: ClassPieces) => Math.min(piece.findings.length, Math.max(0, layout.detailed - piece.offset));
  // What the layout leaves out, said once near the top and again where it was left out.
  const notes: string[] = [];
  const dropped = pieces.classes.filter((piece) => kept(piece) < piece.findings.length);
  if (dropped.length) notes.push(`details of ${dropped.map((piece) => `${piece.findings.length - kept(piece)} ${piece.cls}`).join(', ')} findings dropped`);
  const entries = pieces.classes.reduce((sum, piece) => sum + piece.findings.length, 0);
  const oneLiners = entries - Math.min(layout.detailed, entries) + pieces.accepted.length;
  const unlisted = Math.max(0, oneLiners - layout.listed);
  const unlistedAccepted = Math.min(unlisted, pieces.accepted.length);
  const unlistedFindings = unlisted - unlistedAccepted;
  if (unlistedFindings) notes.push(`${plural(unlistedFindings, 'finding')} not listed`);
  if (unlistedAccepted) notes.push(`${plural(unlistedAccepted, 'accepted finding')} not listed`);
  if (layout.matrixRows < 0 && report.scenarios.length > 0) notes.push('the summary matrix left out');
  else if (layout.matrixRows < report.scenarios.length) notes.push(`${plural(report.scenarios.length - layout.matrixRows, 'matrix row')} left out`);
  if (notes.length) out.push('', `> [!NOTE]\n> Shortened to fit GitHub's comment limit: ${notes.join('; ')}. For the full report, ${DROP_ADVICE}.`);

  let room = layout.listed;
  const take = (lines: string[]) => {
    const shown = lines.slice(0, Math.max(0, room));
    room -= shown.length;
    return shown;
  };
  for (const piece of pieces.classes) {
    const count = piece.findings.length;
    if (count === 0) continue;
    out.push('', `### ${CLASS_TITLE[piece.cls]} (${summary[piece.cls]})`);
    const k = kept(piece);
    if (k > 0) out.push('', detailBlocks(piece.findings.slice(0, k), piece.details, report.scenarios.length));
    if (k === count) continue;
    out.push('', `*details of ${plural(count - k, `${piece.cls} finding`)} dropped to fit GitHub's comment limit; ${DROP_ADVICE}*`);
    const shown = take(piece.compact.slice(k));
    if (shown.length) out.push('', ...shown);
    if (shown.length < count - k) out.push('', `*${count - k - shown.length} more not listed.*`);
  }

  if (pieces.accepted.length) {
    out.push('', `### ☑️ Accepted (${summary.accepted})`, '');
    const shown = take(pieces.accepted);
    if (shown.length) out.push(...shown);
    if (shown.length < pieces.accepted.length) out.push(`${shown.length ? '\n' : ''}*${pieces.accepted.length - shown.length} more reasons not listed.*`);
  }

  if (report.candidates.length) out.push('', ...candidateSection(report, layout.candidates));

  out.push('', '---', `<sub>drift report · schema v${report.schemaVersion} · run \`drift diff\` locally for the same report in your terminal</sub>`);
  return `${out.join('\n')}\n`;
}

/** The candidate conventions, collapsed: many, and they fail nothing. */
function candidateSection(report: Report, listed: number): string[] {
  const count = report.candidates.length;
  const lines = report.candidates.slice(0, listed).map((candidate) => `- ${codeSpan(candidate.subject)} ${escapeInline(candidate.facet)}: ${codeSpan(clip(candidate.value, 200))}`);
  const more = count - lines.length;
  return [
    '<details>',
    `<summary>🧭 ${plural(count, 'candidate convention')}: every provider agrees; <code>drift lock</code> enforces one</summary>`,
    '',
    ...lines,
    ...(more ? [`${lines.length ? '\n' : ''}*${more} more not listed; \`drift diff --format json\` lists them all.*`] : []),
    '',
    '</details>',
  ];
}

/** The largest n in [0, max] with fits(n), for fits true up to some n; -1 when not even fits(0). */
function largest(max: number, fits: (n: number) => boolean): number {
  if (!fits(0)) return -1;
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The pull-request comment. Pure. Over the budget it drops detail in priority order — stylistic
 * details first, then behavioral, then contract, keeping as many as fit, each dropped finding then
 * listed on one line and each class saying how many it dropped; then it lists fewer findings
 * (accepted ones go first); then fewer matrix rows. The marker and a note of what was left out
 * always stay.
 */
export function renderMarkdown(report: Report, options: MarkdownOptions = {}): string {
  const budget = options.budget ?? DEFAULT_BUDGET;
  if (!Number.isFinite(budget) || budget < MIN_BUDGET) throw new Error(`markdown budget must be at least ${MIN_BUDGET} characters, got ${budget}`);
  const maxDiff = Math.floor(budget / 4);
  const scenarioCount = report.scenarios.length;
  // report.findings is sorted contract, behavioral, stylistic (sortFindings); keep that order here.
  // A new provider's missing goldens are one entry, not one per scenario.
  const shown = collapseMissingGoldens(report.findings);
  let offset = 0;
  const classes = CLASSES.map((cls) => {
    const findings = shown.filter((finding) => finding.class === cls);
    const piece: ClassPieces = { cls, findings, offset, details: findings.map((finding) => findingDetail(finding, maxDiff, scenarioCount)), compact: findings.map((finding) => compactLine(finding, scenarioCount)) };
    offset += findings.length;
    return piece;
  });
  const changed = report.changed ? `**Changed** ${describeChanged(report.changed, { file: (file) => codeSpan(clip(file, 300)), name: (text) => escapeInline(clip(text, 100)) })}` : undefined;
  const pieces: Pieces = { marker: markerFor(options.id ?? DEFAULT_REPORT_ID), note: options.note, changed, classes, accepted: groupAccepted(report.accepted).map((group) => acceptedLine(group, report.scenarios.length)) };
  const total = offset;
  const all = total + report.accepted.length;
  const rows = report.scenarios.length;
  const fits = (layout: Layout) => assemble(report, pieces, layout).length <= budget;

  const full: Layout = { detailed: total, listed: all, matrixRows: rows, candidates: report.candidates.length };
  if (fits(full)) return assemble(report, pieces, full);
  // List fewer candidate conventions first: they fail nothing.
  const candidates = largest(report.candidates.length, (n) => fits({ ...full, candidates: n }));
  if (candidates >= 0) return assemble(report, pieces, { ...full, candidates });
  // Keep as many details as fit, dropping from the end: stylistic, then behavioral, then contract.
  const detailed = largest(total, (n) => fits({ detailed: n, listed: all, matrixRows: rows, candidates: 0 }));
  if (detailed >= 0) return assemble(report, pieces, { detailed, listed: all, matrixRows: rows, candidates: 0 });
  // Then list fewer one-liners (accepted first), then show fewer matrix rows, then no matrix.
  const listed = largest(all, (n) => fits({ detailed: 0, listed: n, matrixRows: rows, candidates: 0 }));
  if (listed >= 0) return assemble(report, pieces, { detailed: 0, listed, matrixRows: rows, candidates: 0 });
  const matrixRows = largest(rows, (n) => fits({ detailed: 0, listed: 0, matrixRows: n, candidates: 0 }));
  const text = assemble(report, pieces, { detailed: 0, listed: 0, matrixRows, candidates: 0 });
  // Only a budget too small for the marker, the title and the notes gets here.
  return text.length <= budget ? text : `${text.slice(0, budget - 1)}\n`;
}
