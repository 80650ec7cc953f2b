/**
 * The six style idioms (test/fixtures/style-idioms) as providers, through the built `drift diff`:
 * rendered over gRPC on the bundled scenarios, each passes every contract rule, and judged together
 * they get exactly the style findings and splits written in their folders (the same lists the
 * outline-only test/unit/style-idioms.test.ts checks). The six behave alike, so nothing else differs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runDrift } from '../helpers/drift.js';
import { REPO } from '../helpers/project.js';

interface JsonFinding {
  id: string;
  type: string;
  provider?: string;
  subject?: string;
  facet?: string;
  values?: Record<string, unknown>;
  where?: string[];
  consequences?: JsonFinding[];
}
interface JsonReport {
  providers: string[];
  scenarios: string[];
  cells: Record<string, Record<string, string>>;
  findings: JsonFinding[];
}

const IDIOMS = ['classy', 'hybrid', 'modular', 'reqparam', 'selfreq', 'stateful'];
const PAIRS = IDIOMS.flatMap((a, index) => IDIOMS.slice(index + 1).map((b) => [a, b] as const));
const DIR = path.join(REPO, 'test/fixtures/style-idioms');
/**
 * Every bundled scenario, as the fixtures' drift.config.yaml says: each rule applies in some of them
 * (docs/rules.md), and rendering all ten costs little more than the five that would reach every rule
 * (the six functions start once either way).
 */
const SCENARIOS = readdirSync(path.join(REPO, 'scenarios'))
  .filter((file) => file.endsWith('.yaml'))
  .map((file) => file.replace(/\.yaml$/, ''))
  .sort();
const written = (file: string) =>
  readFileSync(path.join(DIR, file), 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('#'));

describe('the style idioms, rendered', () => {
  let report: JsonReport;
  let findings: JsonFinding[];
  beforeAll(async () => {
    const run = await runDrift(['diff', '-f', 'json'], DIR);
    // Exit 1: the style findings, and no goldens (the fixtures keep none).
    expect(run.exitCode, run.stderr).toBe(1);
    report = JSON.parse(run.stdout) as JsonReport;
    // One place in the code is one cause: its consequences are the findings these lists name.
    findings = report.findings.flatMap((finding) => (finding.type === 'cause' ? (finding.consequences ?? []) : [finding]));
  });

  it('renders every idiom in every scenario, each cell lacking only its golden', () => {
    expect(report.providers).toEqual(IDIOMS);
    expect(report.scenarios).toEqual(SCENARIOS);
    for (const scenario of SCENARIOS) for (const idiom of IDIOMS) expect(report.cells[scenario]?.[idiom], `${idiom}/${scenario}`).toBe('changed');
  });

  it('passes every contract rule in each idiom', () => {
    expect(findings.filter((finding) => finding.id.startsWith('rule:')).map((finding) => finding.id)).toEqual([]);
  });

  it('gives each idiom the style findings written in its folder, and the splits written beside them', () => {
    for (const idiom of IDIOMS) {
      const own = findings.filter((finding) => finding.type === 'style' && finding.provider === idiom);
      expect(own.map((finding) => finding.id).sort(), idiom).toEqual(written(`${idiom}/expected-style.txt`).sort());
      for (const finding of own) expect(finding.where?.[0], finding.id).toMatch(new RegExp(`^${idiom}/function/composer\\.py:\\d+$`));
    }
    expect(findings.filter((finding) => finding.type === 'split').map((finding) => finding.id).sort()).toEqual(written('expected-splits.txt').sort());
  });

  it('differ pairwise on at least three facets, with the roles their renders give', () => {
    for (const [a, b] of PAIRS) {
      const differing = findings.filter((finding) => (finding.type === 'style' || finding.type === 'split') && JSON.stringify(finding.values?.[a]) !== JSON.stringify(finding.values?.[b]));
      const facets = new Set(differing.map((finding) => `${finding.subject}:${finding.facet}`));
      expect(facets.size, `${a} vs ${b}: ${[...facets].join(', ')}`).toBeGreaterThanOrEqual(3);
    }
  });

  it('finds nothing else: the idioms behave alike and are ruff-clean, and only their goldens are missing', () => {
    const rest = findings.filter((finding) => finding.type !== 'style' && finding.type !== 'split');
    expect(rest.filter((finding) => !finding.id.startsWith('golden-missing:')).map((finding) => finding.id)).toEqual([]);
    expect(rest.length).toBe(IDIOMS.length * (SCENARIOS.length + 1));
  });
});
