/**
 * The conformance page: one self-contained HTML file drawn from the page model (viewModel.ts) by small
 * pure functions. Its style and script are inline and allowed by their SHA-256 in a strict
 * Content-Security-Policy (nothing else may load: no network request, no other script), and the same
 * report gives the same bytes (no clock, no random).
 */
import { createHash } from 'node:crypto';
import { html, trusted, type Markup } from './htmlEscape.js';
import type { LinkBase, Place } from './placeLinks.js';
import { CELL_KINDS, pageModel, type Expectation, type FindingView, type GoldenDiff, type MatrixCell, type MatrixRow, type PageModel, type ProviderSection, type SubjectRows, type TimelineView } from './viewModel.js';
import { SCRIPT } from './pageScript.js';
import { STYLE } from './pageStyle.js';
import type { Report } from '../model.js';

export interface HtmlOptions {
  /** Where places link to (placeLinks.ts); default: relative to the project root as the page's folder. */
  links?: LinkBase;
}

const KIND = new Map(CELL_KINDS.map((entry) => [entry.kind, entry]));
const FILTERS = ['behavioral', 'stylistic', 'contract'] as const;

const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Everything the page may load is its own inline style and script, named by their hashes. */
export function contentSecurityPolicy(style: string, script: string): string {
  return `default-src 'none'; style-src ${hash(style)}; script-src ${hash(script)}; img-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'`;
}

/** An id fragment for a provider's section, from its name (escaped again where it is written). */
export function sectionId(provider: string): string {
  return `p-${provider.replace(/[^A-Za-z0-9_-]/g, (char) => `_${char.codePointAt(0)!.toString(16)}`)}`;
}

function placeLink(place: Place, text: string, focusable: boolean): Markup {
  if (!place.href) return html`<span title="${place.text}">${text}</span>`;
  return html`<a href="${place.href}" title="${place.text}"${focusable ? '' : trusted(' tabindex="-1"')}>${text}</a>`;
}

/** `file.py:12` of `providers/x/function/file.py:12`: the cell is narrow; its title and the detail panel say it in full. */
function shortPlace(place: Place): string {
  const name = place.file.split('/').pop() ?? place.file;
  return place.line !== undefined ? `${name}:${place.line}` : name;
}

function scenarioWords(scenarios: string[]): string {
  return scenarios.length === 0 ? '' : scenarios.length <= 2 ? scenarios.join(', ') : `${scenarios.length} scenarios`;
}

/**
 * One cell, kept small (a page has providers × rows of them): its symbol is drawn by the style sheet
 * from its class, its word is visually hidden (screen readers and the detail panel read it), its
 * value is the `var`. The script makes every cell focusable; only the first is a tab stop here.
 */
function cellMarkup(cell: MatrixCell, first: boolean): Markup {
  const kind = KIND.get(cell.kind)!;
  const word = cell.group ? `${kind.word}, way ${cell.group}` : kind.word;
  return html`<td class="k-${cell.kind}"${first ? trusted(' tabindex="0"') : ''}${cell.reason !== undefined ? html` data-reason="${cell.reason}"` : ''}>${cell.group ? html`<span class="g" aria-hidden="true">${cell.group}</span>` : ''}<i>${word}</i> <var>${cell.value}</var>${cell.place ? placeLink(cell.place, shortPlace(cell.place), false) : ''}</td>`;
}

function rowMarkup(subject: string, row: MatrixRow, firstRow: boolean): Markup {
  const scenarios = scenarioWords(row.scenarios);
  return html`<tr data-class="${row.class}" data-facet="${row.facet}"${row.scenarios.length ? html` data-scenarios="${row.scenarios.join(', ')}"` : ''}><th scope="row"><span class="sr">${subject} </span>${row.facet}${scenarios ? html` <small title="${row.scenarios.join(', ')}">${scenarios}</small>` : ''}</th>${row.cells.map((cell, index) => cellMarkup(cell, firstRow && index === 0))}</tr>`;
}

function subjectMarkup(group: SubjectRows, columns: number, first: boolean): Markup {
  return html`<tbody data-subject="${group.subject}"><tr><th scope="rowgroup" colspan="${columns}">${group.subject}</th></tr>${group.rows.map((row, index) => rowMarkup(group.subject, row, first && index === 0))}</tbody>`;
}

function filtersMarkup(model: PageModel): Markup {
  const count = (cls: string) => model.subjects.reduce((sum, group) => sum + group.rows.filter((row) => row.class === cls).length, 0);
  return html`<fieldset class="filters"><legend>Show rows</legend>${FILTERS.map((cls) => html`<label><input type="checkbox" data-filter="${cls}" checked> ${cls} (${count(cls)})</label>`)}</fieldset>`;
}

function legendMarkup(): Markup {
  return html`<ul class="legend" aria-label="What a cell's symbol means">${CELL_KINDS.map((entry) => html`<li class="k-${entry.kind}">${entry.word}</li>`)}</ul>`;
}

function matrixMarkup(model: PageModel): Markup {
  if (model.subjects.length === 0) return html`<p>No facet to show: no candidate convention and no finding about a provider.</p>`;
  return html`<section aria-labelledby="matrix-h"><h2 id="matrix-h">Providers &times; facets</h2>${filtersMarkup(model)}${legendMarkup()}<aside id="detail" aria-live="polite" aria-label="The focused cell in full">Focus a cell (Tab into the matrix, then the arrow keys) or hover it to see its value in full, why it is accepted, and its place.</aside><div class="scroll"><table id="matrix-table"><caption class="sr">Facets of each subject (rows) by provider (columns). Arrow keys move between cells; Enter follows a cell's place.</caption><thead><tr><th scope="col">subject &middot; facet</th>${model.providers.map((provider) => html`<th scope="col"><a href="#${sectionId(provider)}">${provider}</a></th>`)}</tr></thead>${model.subjects.map((group, index) => subjectMarkup(group, model.providers.length + 1, index === 0))}</table></div></section>`;
}

function findingMarkup(finding: FindingView): Markup {
  return html`<li><span class="tag c-${finding.class}">${finding.class}</span><span class="tag">${finding.type}</span>${finding.accepted !== undefined ? html`<span class="tag">accepted</span>` : ''} ${finding.message}${finding.scenarios.length ? html` <small>(${finding.scenarios.join(', ')})</small>` : ''}${finding.consequences ? html`<ul>${finding.consequences.map((one) => html`<li>${one.message} <small>${one.id}</small></li>`)}</ul>` : ''}${finding.places.length ? html`<br>where: ${finding.places.map((place, index) => html`${index ? ', ' : ''}${placeLink(place, place.text, true)}`)}` : ''}${finding.accepted !== undefined ? html`<br>accepted because: ${finding.accepted}` : html`<br><span class="fix">fix: ${finding.fix}</span>`}</li>`;
}

function findingsMarkup(findings: FindingView[]): Markup {
  if (findings.length === 0) return html`<p>No finding.</p>`;
  return html`<ul class="findings">${findings.map(findingMarkup)}</ul>`;
}

function expectMarkup(expect: Expectation[]): Markup {
  const met = expect.filter((entry) => entry.met === 'met');
  const others = expect.filter((entry) => entry.met !== 'met');
  const line = (entry: Expectation) => `${entry.subject} ${entry.facet}`;
  return html`<h3>Expect</h3><p>${met.length} of ${expect.length} met${others.length ? `; ${others.filter((entry) => entry.met === 'not met').length} not met, ${others.filter((entry) => entry.met === 'accepted').length} accepted` : ''}.</p>${others.length ? html`<table class="grid"><thead><tr><th scope="col">subject &middot; facet</th><th scope="col">asked</th><th scope="col">verdict</th></tr></thead><tbody>${others.map((entry) => html`<tr><th scope="row">${line(entry)}</th><td>${entry.value}</td><td>${entry.met === 'accepted' ? '☑ accepted' : '✗ not met'}</td></tr>`)}</tbody></table>` : ''}${met.length ? html`<details><summary>met (${met.length})</summary><ul class="met">${met.map((entry) => html`<li>&#x2713; ${line(entry)}</li>`)}</ul></details>` : ''}`;
}

function timelineMarkup(timeline: TimelineView | undefined): Markup {
  if (!timeline) return html`<h3>Timeline</h3><p>Not in this report (it was not rendered by this run).</p>`;
  return html`<h3>Timeline</h3><p><small>Per scenario: the step each key appears &rarr; the step it is first marked ready.</small></p><div class="scroll"><table class="grid"><thead><tr><th scope="col">key (role)</th>${timeline.scenarios.map((scenario) => html`<th scope="col">${scenario}</th>`)}</tr></thead><tbody><tr><th scope="row">converged at</th>${timeline.scenarios.map((scenario) => html`<td>${timeline.converged[scenario] ?? ''}</td>`)}</tr>${timeline.rows.map((row) => html`<tr><th scope="row">${row.key}${row.role !== row.key ? html` <small>${row.role}</small>` : ''}</th>${timeline.scenarios.map((scenario) => html`<td>${row.steps[scenario] ?? '—'}</td>`)}</tr>`)}</tbody></table></div>`;
}

const MARK: Record<string, string> = { same: '', removed: '−', added: '+', changed: '±' };

function diffMarkup(diff: GoldenDiff): Markup {
  return html`<h4>${diff.subject}${diff.scenarios.length ? html` <small>${diff.scenarios.join(', ')}</small>` : ''}</h4><table class="diff"><thead><tr><th scope="col" class="m"><span class="sr">change</span></th><th scope="col">golden</th><th scope="col">rendered</th></tr></thead><tbody>${diff.rows.map((row) => html`<tr class="${row.change}"><td class="m">${MARK[row.change]}</td><td class="l">${row.left ?? ''}</td><td class="r">${row.right ?? ''}</td></tr>`)}</tbody></table>`;
}

function sectionMarkup(section: ProviderSection): Markup {
  return html`<section class="provider" id="${sectionId(section.provider)}" aria-labelledby="${sectionId(section.provider)}-h"><h2 id="${sectionId(section.provider)}-h">${section.provider} <small>${section.state}</small></h2><h3>Findings</h3>${findingsMarkup(section.findings)}${expectMarkup(section.expect)}${timelineMarkup(section.timeline)}${section.diffs.length ? html`<h3>Golden diffs</h3>${section.diffs.map(diffMarkup)}` : ''}</section>`;
}

function summaryWords(model: PageModel): string {
  const { summary } = model;
  if (summary.clean) return `Clean: no finding fails the run (${summary.accepted} accepted).`;
  return `${summary.findings} finding${summary.findings === 1 ? '' : 's'} fail the run: ${summary.contract} contract, ${summary.behavioral} behavioral, ${summary.stylistic} stylistic (${summary.accepted} accepted).`;
}

/** The page for a page model. Pure. */
export function renderPage(model: PageModel): string {
  const body = html`<header><h1>${model.title}</h1><p class="summary">${summaryWords(model)}</p>${model.notes.map((note) => html`<p class="note">${note}</p>`)}</header><nav aria-label="Providers"><ul>${model.providers.map((provider) => html`<li><a href="#${sectionId(provider)}">${provider}</a></li>`)}</ul></nav><main>${matrixMarkup(model)}${model.general.length ? html`<section aria-labelledby="general-h"><h2 id="general-h">About the run</h2>${findingsMarkup(model.general)}</section>` : ''}${model.sections.map(sectionMarkup)}</main>`;
  const head = html`<meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(STYLE, SCRIPT)}"><meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${model.title}</title><style>${trusted(STYLE)}</style>`;
  return `<!doctype html>\n<html lang="en"><head>${head.text}</head><body>${body.text}<script>${SCRIPT}</script></body></html>\n`;
}

/** The conformance page of a report. Pure; the same report and options give the same bytes. */
export function renderHtml(report: Report, options: HtmlOptions = {}): string {
  return renderPage(pageModel(report, options.links ?? { kind: 'relative', prefix: '' }));
}
