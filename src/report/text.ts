import { styleText } from 'node:util';
import type { Finding } from '../compare/findings.js';
import { describeScenarios, groupAccepted } from './acceptedGroups.js';
import { describeChanged } from './changedText.js';
import { collapseMissingGoldens, consequenceWords, headlineOf, placeWords, tippedLine, wayLines } from './findingWords.js';
import { type CellState, type Report } from './model.js';

type Style = Parameters<typeof styleText>[0];

const CELL_LABEL: Record<CellState, string> = { clean: 'clean', split: 'split', divergent: 'divergent', changed: 'changed', contract: 'contract', error: 'error' };
const CELL_STYLE: Record<CellState, Style> = { clean: 'green', split: 'yellow', divergent: 'yellow', changed: 'yellow', contract: 'red', error: 'red' };

function indent(text: string, by = '    '): string {
  return text
    .split('\n')
    .map((line) => (line ? by + line : line))
    .join('\n');
}

/** What the accepted findings are about, per provider (`all` for those about no provider), in report order. */
function acceptedByProvider(accepted: readonly Finding[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const finding of accepted) {
    const provider = finding.provider ?? 'all';
    const about = finding.type === 'cause' ? `${finding.subject} (one place)` : [finding.subject, finding.facet !== finding.subject ? finding.facet : undefined].filter(Boolean).join(' ');
    const list = out.get(provider) ?? [];
    if (!list.includes(about)) list.push(about);
    out.set(provider, list);
  }
  return out;
}

/** The terminal report: summary matrix first (scenarios × providers), then details by class. */
export function renderText(report: Report, options: { color: boolean; verbose?: boolean }): string {
  const paint = (style: Style, text: string) => (options.color ? styleText(style, text) : text);
  const out: string[] = [];
  if (report.changed) out.push(`changed ${describeChanged(report.changed, { file: (file) => file, name: (text) => text })}`, ...(report.providers.length > 0 ? [''] : []));
  const nameWidth = Math.max(8, ...report.scenarios.map((s) => s.length)) + 2;
  const colWidth = Math.max(10, ...report.providers.map((p) => p.length + 2));
  // A --changed run that rendered nothing has no columns: its line above says so, and no matrix.
  if (report.providers.length > 0) out.push(paint('bold', 'scenario'.padEnd(nameWidth) + report.providers.map((p) => p.padEnd(colWidth)).join('')).trimEnd());
  for (const scenario of report.providers.length > 0 ? report.scenarios : []) {
    const row = report.cells[scenario] ?? {};
    const cells = report.providers.map((provider) => {
      const state = row[provider] ?? 'clean';
      return paint(CELL_STYLE[state], CELL_LABEL[state].padEnd(colWidth));
    });
    out.push((scenario.padEnd(nameWidth) + cells.join('')).trimEnd());
  }
  if (report.sources && report.providers.length > 0) {
    const sources = report.sources;
    const cells = report.providers.map((provider) => {
      const state = sources[provider];
      return state ? paint(CELL_STYLE[state], CELL_LABEL[state].padEnd(colWidth)) : '-'.padEnd(colWidth);
    });
    out.push(('source'.padEnd(nameWidth) + cells.join('')).trimEnd());
  }
  const total = report.scenarios.length;
  const shown = collapseMissingGoldens(report.findings);
  for (const cls of ['contract', 'behavioral', 'stylistic'] as const) {
    const group = shown.filter((finding) => finding.class === cls);
    if (group.length === 0) continue;
    const count = report.findings.filter((finding) => finding.class === cls).length;
    out.push('', paint('bold', `${cls} (${count})`));
    for (const finding of group) {
      // One line says who, in which scenarios, what and its id; the last one where and the fix.
      const [, ...more] = finding.message.split('\n');
      out.push(`  ${paint(cls === 'stylistic' ? 'yellow' : 'red', '✗')} ${placeWords(finding, total)}  ${headlineOf(finding)}  ${paint('dim', `[${finding.id}]`)}`);
      // A rendering error carries the function's output on further lines.
      if (more.length) out.push(indent(more.join('\n'), '    '));
      // In words, one line each: a split's ways, a cause's consequences. A divergence's values are in its hint.
      for (const way of wayLines(finding)) out.push(`      ${way}`);
      const tipped = tippedLine(finding);
      if (tipped) out.push(`      ${tipped}`);
      for (const consequence of finding.consequences ?? []) out.push(`      · ${consequenceWords(consequence, finding, total)}  ${paint('dim', `[${consequence.id}]`)}`);
      if (finding.diff) out.push(indent(finding.diff, '      '));
      // The cause's file:line, then one provider's that follows the convention (a place the hint names already is not repeated).
      const places = (finding.where ?? []).filter((place) => !finding.hint.includes(place));
      out.push(`      ${places.length ? `at ${places.join('; ')} ` : ''}${paint('dim', `→ ${finding.hint}`)}`);
    }
  }
  if (report.accepted.length) {
    out.push('', paint('bold', `accepted (${report.accepted.length})${options.verbose ? '' : ': --verbose lists each with its reason'}`));
    if (options.verbose) {
      for (const group of groupAccepted(report.accepted)) {
        const id = group.ids.length === 1 ? group.ids[0]! : `${group.ids[0]!} and ${group.ids.length - 1} more`;
        out.push(`  ~ ${group.provider ?? 'all'} (${describeScenarios(group.scenarios, report.scenarios.length)})  ${group.message}  ${paint('dim', `[${id}]`)}\n      reason: ${group.reason}`);
      }
    } else {
      // Accepted findings fail nothing: one line per provider says what they are about. A stale entry
      // is the author's to edit, so it is listed whole, with what to do.
      const stale = report.accepted.filter((finding) => finding.type === 'accepted-stale');
      for (const [provider, about] of acceptedByProvider(report.accepted.filter((finding) => finding.type !== 'accepted-stale'))) out.push(`  ~ ${provider}: ${about.join(', ')}`);
      for (const finding of stale) out.push(`  ~ ${finding.message}  ${paint('dim', `[${finding.id}]`)}`, `      ${paint('dim', `→ ${finding.hint}`)}`);
    }
  }
  if (report.candidates.length) {
    // There are many (every facet all providers share): counted always, listed on request.
    const lock = '`drift lock <facet> --subject S --reason "..."` enforces one';
    if (options.verbose) {
      out.push('', paint('bold', `candidate conventions (${report.candidates.length}): every provider agrees; ${lock}`));
      for (const candidate of report.candidates) out.push(`  ${candidate.subject} ${candidate.facet}: ${candidate.value}`);
    } else out.push('', `${report.candidates.length} candidate conventions (every provider agrees): --verbose or --format json lists them; ${lock}`);
  }
  for (const note of report.notes ?? []) out.push('', paint('bold', `note: ${note}`));
  const { summary } = report;
  const verdict = summary.clean
    ? paint('green', `no findings`)
    : paint('red', `${summary.findings} finding${summary.findings === 1 ? '' : 's'} (${summary.contract} contract, ${summary.behavioral} behavioral, ${summary.stylistic} stylistic${summary.consequences > summary.findings ? `; ${summary.consequences} counting each consequence of a cause` : ''})`);
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  out.push('', `${count(report.providers.length, 'provider')} × ${count(report.scenarios.length, 'scenario')}: ${verdict}${summary.accepted ? `, ${summary.accepted} accepted` : ''}`);
  return `${out.join('\n')}\n`;
}
