import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/compare/findings.js';
import { parseReportArtifact } from '../../src/report/artifact.js';
import { renderReport } from '../../src/report/formats.js';
import { escapeHtml, html } from '../../src/report/html/htmlEscape.js';
import { parseWhere, placeOf } from '../../src/report/html/placeLinks.js';
import { pageModel, sideBySide, words, type MatrixRow } from '../../src/report/html/viewModel.js';
import { renderHtml } from '../../src/report/html/page.js';
import { renderJson } from '../../src/report/json.js';
import { buildReport } from '../../src/report/model.js';
import { timelinesOf } from '../../src/report/timeline.js';

const PROVIDERS = ['aks', 'eks', 'gke', 'nebius'];
const SCENARIOS = ['converge', 'two-pools'];
const LOCAL = { kind: 'relative', prefix: '' } as const;

function divergence(overrides: Partial<Finding> = {}): Finding {
  return {
    id: 'div:node-pool:gated-on:aks',
    type: 'divergence',
    class: 'behavioral',
    provider: 'aks',
    scenarios: ['converge'],
    subject: 'node-pool',
    facet: 'gated-on',
    message: 'node-pool gated-on differs from the convention of 3 of 4 providers',
    values: { aks: ['cluster.ready'], eks: ['cluster.exists'], gke: ['cluster.exists'], nebius: ['cluster.exists'] },
    consensus: ['cluster.exists'],
    where: ['providers/aks/function/composer.py:184', 'eks: providers/eks/function/composer.py:213'],
    hint: 'make aks follow it',
    ...overrides,
  };
}

const split: Finding = {
  id: 'split:requirements:requires',
  type: 'split',
  class: 'behavioral',
  scenarios: ['converge', 'two-pools'],
  subject: 'requirements',
  facet: 'requires',
  message: 'no convention',
  values: { aks: ['ClusterProviderConfig'], eks: [], gke: ['ClusterProviderConfig'], nebius: [] },
  groups: [
    { value: ['ClusterProviderConfig'], providers: ['aks', 'gke'] },
    { value: [], providers: ['eks', 'nebius'] },
  ],
  hint: 'decide',
  accepted: { reason: 'only some read their ProviderConfig' },
};

const rule: Finding = { id: 'rule:cache-storage-class:gke:status.cache', type: 'rule', class: 'contract', provider: 'gke', scenarios: ['converge'], subject: 'status.cache', facet: 'cache-storage-class', message: 'status.cache missing', where: ['providers/gke/function/composer.py:279'], hint: 'publish it' };

const golden: Finding = {
  id: 'golden:eks/converge:resources.nodepool-gpu',
  type: 'golden',
  class: 'behavioral',
  provider: 'eks',
  scenario: 'converge',
  subject: 'resources.nodepool-gpu',
  message: 'resources.nodepool-gpu changed',
  diff: '- golden\n+ rendered\n\n@@ -7,5 +7,6 @@\n  readyBy: observed\n  gatedOn:\n-   - cluster.exists\n+   - cluster.ready\n+   - credentials\n  providerConfigRef:',
  hint: 'drift update',
};

function rowOf(rows: MatrixRow[], subject: string, facet: string): MatrixRow {
  const row = rows.find((entry) => entry.subject === subject && entry.facet === facet);
  if (!row) throw new Error(`no row ${subject} ${facet} among ${rows.map((entry) => `${entry.subject} ${entry.facet}`).join(', ')}`);
  return row;
}

const cellOf = (row: MatrixRow, provider: string) => row.cells.find((cell) => cell.provider === provider)!;

describe('the page escaper', () => {
  it('turns every character that can end a text node or an attribute into an entity', () => {
    expect(escapeHtml(`<script>alert("x")</script> & 'y'`)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;');
  });

  it('escapes what is interpolated into markup, nested lists included, and keeps markup it built', () => {
    const hostile = '"><img src=x onerror=alert(1)>';
    expect(html`<td title="${hostile}">${[hostile, html`<b>${hostile}</b>`]}</td>`.text).toBe(
      '<td title="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;">&quot;&gt;&lt;img src=x onerror=alert(1)&gt;<b>&quot;&gt;&lt;img src=x onerror=alert(1)&gt;</b></td>',
    );
  });

  it('a report whose every string is hostile renders no markup of its own and no link to a script', () => {
    const evil = '</script><script>alert(1)</script><img src=x onerror=alert(2)>';
    const provider = `<b onmouseover="x">${evil}`;
    const report = buildReport(
      [provider, 'eks', 'gke'],
      [evil],
      [
        divergence({ provider, scenarios: [evil], subject: evil, facet: evil, message: evil, hint: evil, values: { [provider]: evil, eks: 'a', gke: 'a' }, consensus: 'a', where: ['javascript:alert(1)', `eks: ${evil}:3`] }),
        { ...golden, provider, scenario: evil, subject: evil, diff: `- golden\n+ rendered\n\n- ${evil}\n+ ${evil}` },
        { ...split, subject: evil, accepted: { reason: evil }, groups: [{ value: evil, providers: [provider, 'eks'] }, { value: 'b', providers: ['gke'] }] },
        { id: 'stale', type: 'accepted-stale', class: 'behavioral', subject: evil, message: evil, hint: evil },
      ],
      { candidates: [{ facet: evil, subject: evil, value: evil }], notes: [evil], timelines: { [provider]: { [evil]: { converged: 1, xrReady: true, resources: [{ key: evil, role: evil, appears: 0, ready: 1 }] } } } },
    );
    const page = renderHtml(report);
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page.match(/<img|<b[ >]|<script>alert|onmouseover="x"/)?.[0]).toBeUndefined();
    expect(page).not.toMatch(/href="javascript/i);
    // The evil text is there, as text.
    expect(page).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('the page', () => {
  const report = buildReport(PROVIDERS, SCENARIOS, [divergence(), split, rule, golden], { candidates: [{ facet: 'appears', subject: 'cluster', value: 'step 0' }] });

  it('is one self-contained file: its style and script are allowed by their hashes, nothing else may load', () => {
    const page = renderHtml(report);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)![1]!.replaceAll('&#39;', "'");
    const style = /<style>([\s\S]*?)<\/style>/.exec(page)![1]!;
    const script = /<script>([\s\S]*?)<\/script>/.exec(page)![1]!;
    const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(csp).toBe(`default-src 'none'; style-src ${sha(style)}; script-src ${sha(script)}; img-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'`);
    expect(page).not.toMatch(/<link|<img|<iframe|\bsrc=|@import|url\(/);
    expect(page).not.toMatch(/ on[a-z]+=/);
  });

  it('the same report gives the same bytes, through --format html and from its JSON', () => {
    const page = renderReport(report, 'html');
    expect(renderReport(report, 'html')).toBe(page);
    expect(renderHtml(parseReportArtifact('r.json', renderJson(report)))).toBe(page);
  });

  it('is a real table: column and row headers, one tab stop for the matrix, a word beside every symbol', () => {
    const page = renderHtml(report);
    expect(page.match(/<th scope="col">/g)!.length).toBeGreaterThanOrEqual(PROVIDERS.length + 1);
    expect(page).toContain('<th scope="rowgroup"');
    expect(page.match(/<td [^>]*tabindex="0"/g)).toHaveLength(1);
    const matrix = /<table id="matrix-table">[\s\S]*?<\/table>/.exec(page)![0];
    const cells = matrix.match(/<td [^>]*>/g)!;
    expect(cells.length).toBe(PROVIDERS.length * 5);
    // Each cell's word, visually hidden beside the symbol its class draws.
    expect(matrix.match(/<td [^>]*>(?:<span class="g"[^>]*>[A-Z]<\/span>)?<i>[a-z]/g)).toHaveLength(cells.length);
    expect(page).toContain('.k-divergent::before{content:"\\2717 " / ""}');
  });
});

describe('the page model', () => {
  const model = pageModel(buildReport(PROVIDERS, SCENARIOS, [divergence(), split, rule, golden], { candidates: [{ facet: 'appears', subject: 'cluster', value: 'step 0' }] }), { kind: 'blob', url: 'https://github.com/o/r/blob/abc1234' });
  const rows = model.subjects.flatMap((subject) => subject.rows);

  it('a divergence: the provider that differs is divergent at its place; the others hold the convention, the example at its place', () => {
    const row = rowOf(rows, 'node-pool', 'gated-on');
    expect(row.class).toBe('behavioral');
    expect(row.scenarios).toEqual(['converge']);
    expect(cellOf(row, 'aks')).toMatchObject({ kind: 'divergent', value: '[cluster.ready]', place: { text: 'providers/aks/function/composer.py:184', href: 'https://github.com/o/r/blob/abc1234/providers/aks/function/composer.py#L184' } });
    expect(cellOf(row, 'eks')).toMatchObject({ kind: 'convention', value: '[cluster.exists]', place: { href: 'https://github.com/o/r/blob/abc1234/providers/eks/function/composer.py#L213' } });
    expect(cellOf(row, 'gke')).toEqual({ provider: 'gke', kind: 'convention', value: '[cluster.exists]' });
  });

  it('an accepted split: each provider in its way (A the largest), with the reason', () => {
    const row = rowOf(rows, 'requirements', 'requires');
    expect(row.cells.map((cell) => [cell.provider, cell.kind, cell.group, cell.value])).toEqual([
      ['aks', 'accepted', 'A', '[ClusterProviderConfig]'],
      ['eks', 'accepted', 'B', '[]'],
      ['gke', 'accepted', 'A', '[ClusterProviderConfig]'],
      ['nebius', 'accepted', 'B', '[]'],
    ]);
    expect(cellOf(row, 'eks').reason).toBe('only some read their ProviderConfig');
  });

  it('a rule, a golden change and a candidate convention each have their row', () => {
    expect(rowOf(rows, 'status.cache', 'cache-storage-class')).toMatchObject({ class: 'contract' });
    expect(cellOf(rowOf(rows, 'status.cache', 'cache-storage-class'), 'gke').kind).toBe('broken');
    expect(cellOf(rowOf(rows, 'status.cache', 'cache-storage-class'), 'aks').kind).toBe('clean');
    expect(cellOf(rowOf(rows, 'golden', 'resources.nodepool-gpu'), 'eks').kind).toBe('changed');
    expect(rowOf(rows, 'cluster', 'appears').cells.every((cell) => cell.kind === 'convention' && cell.value === 'step 0')).toBe(true);
  });

  it("each provider's section: its findings, what is expected of it, its golden diffs side by side", () => {
    const aks = model.sections.find((section) => section.provider === 'aks')!;
    expect(aks.findings.map((finding) => finding.id)).toEqual(['div:node-pool:gated-on:aks']);
    expect(aks.expect).toContainEqual({ subject: 'node-pool', facet: 'gated-on', met: 'not met', value: '[cluster.exists]' });
    expect(aks.expect).toContainEqual({ subject: 'cluster', facet: 'appears', met: 'met', value: 'step 0' });
    const eks = model.sections.find((section) => section.provider === 'eks')!;
    expect(eks.diffs).toHaveLength(1);
    expect(eks.diffs[0]!.rows).toContainEqual({ left: '  - cluster.exists', right: '  - cluster.ready', change: 'changed' });
    expect(eks.diffs[0]!.rows).toContainEqual({ right: '  - credentials', change: 'added' });
  });

  it('values in words, structurally, never cut', () => {
    expect(words({ kind: 'ClusterProviderConfig', name: null, zones: ['a', 'b'] })).toBe('{kind: ClusterProviderConfig, name: none, zones: [a, b]}');
  });
});

describe('reports of the next shape (schema 3)', () => {
  it("a cause's consequences each take their cell, accepted with it; a split's ways carry each holder's place", () => {
    const gate = divergence();
    const rule2: Finding = { ...rule, provider: 'aks', where: ['providers/aks/function/composer.py:184'] };
    const cause = { id: 'cause:aks:providers/aks/function/composer.py:184', type: 'cause', class: 'contract', provider: 'aks', scenarios: ['converge'], subject: 'node-pool, status.cache', message: 'one gate', where: ['providers/aks/function/composer.py:184'], hint: 'fix the gate', consequences: [gate, rule2], accepted: { reason: 'on purpose' } } as unknown as Finding;
    const placed = { ...split, accepted: undefined, groups: [{ value: ['ClusterProviderConfig'], providers: ['aks', 'gke'], where: ['aks: providers/aks/function/composer.py:90', 'gke: providers/gke/function/composer.py:95'] }, { value: [], providers: ['eks', 'nebius'] }] } as unknown as Finding;
    const model = pageModel({ ...buildReport(PROVIDERS, SCENARIOS, [placed]), accepted: [cause] }, LOCAL);
    const rows = model.subjects.flatMap((subject) => subject.rows);
    expect(cellOf(rowOf(rows, 'node-pool', 'gated-on'), 'aks')).toMatchObject({ kind: 'accepted', reason: 'on purpose', value: '[cluster.ready]' });
    expect(cellOf(rowOf(rows, 'status.cache', 'cache-storage-class'), 'aks')).toMatchObject({ kind: 'accepted', reason: 'on purpose' });
    expect(rows.some((row) => row.facet === 'cause')).toBe(false);
    expect(cellOf(rowOf(rows, 'requirements', 'requires'), 'gke')).toMatchObject({ kind: 'split', group: 'A', place: { text: 'providers/gke/function/composer.py:95', href: 'providers/gke/function/composer.py' } });
    expect(cellOf(rowOf(rows, 'requirements', 'requires'), 'eks').place).toBeUndefined();
    // The provider's section lists the cause once, with its one place and fix.
    expect(model.sections.find((section) => section.provider === 'aks')!.findings.map((finding) => [finding.id, finding.fix])).toEqual([['cause:aks:providers/aks/function/composer.py:184', 'fix the gate']]);
  });
});

describe('side by side', () => {
  it('pairs a run of removed lines with the added run after it, keeps context on both sides', () => {
    expect(sideBySide('- golden\n+ rendered\n\n  a: 1\n- b: 2\n- c: 3\n+ b: 4\n  d: 5\n+ e: 6')).toEqual([
      { left: 'a: 1', right: 'a: 1', change: 'same' },
      { left: 'b: 2', right: 'b: 4', change: 'changed' },
      { left: 'c: 3', change: 'removed' },
      { left: 'd: 5', right: 'd: 5', change: 'same' },
      { right: 'e: 6', change: 'added' },
    ]);
  });
});

describe('places', () => {
  it('link to the file at the commit on GitHub, or relatively, and never when the path is not plain', () => {
    expect(placeOf('providers/a b/x.py:12', { kind: 'blob', url: 'https://github.com/o/r/blob/abc1234' }).href).toBe('https://github.com/o/r/blob/abc1234/providers/a%20b/x.py#L12');
    expect(placeOf('providers/x/provider.yaml:3:5', { kind: 'relative', prefix: '../' })).toEqual({ text: 'providers/x/provider.yaml:3:5', file: 'providers/x/provider.yaml', line: 3, href: '../providers/x/provider.yaml' });
    for (const bad of ['javascript:alert(1)', '/etc/passwd:1', '../outside.py:2', 'a/"onclick=x.py:1', 'https://evil.example/x:1']) expect(placeOf(bad, LOCAL).href, bad).toBeUndefined();
    expect(parseWhere('eks: providers/eks/function/composer.py:213')).toEqual({ provider: 'eks', place: 'providers/eks/function/composer.py:213' });
  });
});

describe('timelines in the report', () => {
  it('come from the skeletons, survive the JSON report, and are drawn per provider', () => {
    const skeleton = {
      converged: { step: 2, xrReady: true },
      resources: {
        'nodepool-gpu': { role: 'node-pool', appears: 1, ready: 2, readyBy: 'observed' as const },
        cluster: { role: 'cluster', appears: 0, ready: 1, readyBy: 'observed' as const, dropped: 4 },
      },
    };
    const timelines = timelinesOf([
      { provider: 'aks', scenario: 'converge', skeleton },
      { provider: 'eks', scenario: 'converge', skeleton: { ...skeleton, error: 'it crashed' } },
    ]);
    expect(Object.keys(timelines)).toEqual(['aks']);
    expect(timelines.aks!.converge!.resources.map((entry) => entry.key)).toEqual(['cluster', 'nodepool-gpu']);
    const report = buildReport(PROVIDERS, SCENARIOS, [], { timelines });
    const read = parseReportArtifact('r.json', renderJson(report));
    expect(read.timelines).toEqual(timelines);
    const aks = pageModel(read, LOCAL).sections.find((section) => section.provider === 'aks')!;
    expect(aks.timeline).toEqual({
      scenarios: ['converge'],
      converged: { converge: '2' },
      rows: [
        { key: 'cluster', role: 'cluster', steps: { converge: '0 \u2192 ready 1, dropped 4' } },
        { key: 'nodepool-gpu', role: 'node-pool', steps: { converge: '1 \u2192 ready 2' } },
      ],
    });
    expect(pageModel(read, LOCAL).sections.find((section) => section.provider === 'eks')!.timeline).toBeUndefined();
  });
});
