/** Candidate conventions in every report format: counted in text (listed with --verbose), collapsed in markdown, listed in JSON. */
import { describe, expect, it } from 'vitest';
import { renderJson } from '../../src/report/json.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { buildReport, type Candidate } from '../../src/report/model.js';
import { renderText } from '../../src/report/text.js';
import { PROVIDERS, SCENARIOS, syntheticReport } from '../helpers/reports.js';

const CANDIDATES: Candidate[] = [
  { facet: 'labels', subject: 'node-pool', value: '["modelplane.ai/gpu","modelplane.ai/pool"]' },
  { facet: 'readers', subject: 'kubeconfig', value: '["provider-config-helm","provider-config-kubernetes"]' },
];
const report = buildReport(PROVIDERS, SCENARIOS, [], { candidates: CANDIDATES });

describe('candidate conventions in the reports', () => {
  it('text counts them, and lists each with its value under --verbose', () => {
    const quiet = renderText(report, { color: false });
    expect(quiet).toContain('2 candidate conventions (every provider agrees)');
    expect(quiet).not.toContain('modelplane.ai/gpu');
    const verbose = renderText(report, { color: false, verbose: true });
    for (const candidate of CANDIDATES) expect(verbose).toContain(`  ${candidate.subject} ${candidate.facet}: ${candidate.value}`);
  });

  it('markdown lists them in a collapsed section', () => {
    const markdown = renderMarkdown(report);
    const section = markdown.slice(markdown.indexOf('<details>'), markdown.indexOf('</details>'));
    expect(section).toContain('<summary>🧭 2 candidate conventions');
    for (const candidate of CANDIDATES) expect(section).toContain(`\`${candidate.subject}\` ${candidate.facet}`);
  });

  it('markdown drops them first when the comment must be shortened, and says so', () => {
    const many = buildReport(PROVIDERS, SCENARIOS, syntheticReport(40).findings, { candidates: Array.from({ length: 2000 }, (_, i) => ({ facet: `facet-${i}`, subject: 'node-pool', value: 'x'.repeat(150) })) });
    const markdown = renderMarkdown(many, { budget: 20_000 });
    expect(markdown.length).toBeLessThanOrEqual(20_000);
    expect(markdown).toMatch(/\*\d+ more not listed; `drift diff --format json` lists them all\.\*/);
    expect(markdown).toContain('### ⛔ Contract');
  });

  it('JSON lists every one, and a report without any has an empty list', () => {
    expect((JSON.parse(renderJson(report)) as { candidates: Candidate[] }).candidates).toEqual(CANDIDATES);
    expect((JSON.parse(renderJson(buildReport(PROVIDERS, SCENARIOS, []))) as { candidates: Candidate[] }).candidates).toEqual([]);
  });
});
