/** A split finding everywhere a finding goes: the matrix, text, Markdown, JSON, and goldens/accepted.yaml. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { applyAccepted } from '../../src/compare/acceptance.js';
import { compareAcross } from '../../src/compare/cross.js';
import type { Finding } from '../../src/compare/findings.js';
import { renderJson } from '../../src/report/json.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { buildReport } from '../../src/report/model.js';
import { renderText } from '../../src/report/text.js';
import { goodSkeleton } from '../helpers/fourth.js';

const renamed = (provider: string) => goodSkeleton(provider, 'converge', { resources: { 'nodepool-gpu': undefined, 'node-pool-gpu': goodSkeleton(provider).resources['nodepool-gpu'] } });
/** eks and gke name pools one way, nebius and vultr another: a 2-2 key-pattern split. */
const splitFindings = (): Finding[] => compareAcross({ scenario: 'converge', pools: ['gpu'], ablated: false, skeletons: [goodSkeleton('eks'), goodSkeleton('gke'), renamed('nebius'), renamed('vultr')] });
const PROVIDERS = ['eks', 'gke', 'nebius', 'vultr'];
const SCENARIOS = ['converge', 'two-pools'];
const blamed = (provider: string, scenario = 'two-pools'): Finding => ({
  id: `div:node-pool:labels:${provider}`,
  type: 'divergence',
  class: 'behavioral',
  provider,
  scenario,
  subject: 'node-pool',
  facet: 'labels',
  message: 'node-pool labels differs from the convention of 3 of 4 providers (eks, nebius, vultr)',
  hint: 'align it',
});

describe('a split in the report', () => {
  it('colors only the cells of providers on a smaller way, below anything that names a provider: a tie marks nobody', () => {
    const report = buildReport(PROVIDERS, SCENARIOS, [...splitFindings(), blamed('gke'), blamed('gke', 'converge')]);
    // 2-2: a split about everyone, no way smaller than the largest.
    expect(report.cells).toEqual({
      converge: { eks: 'clean', gke: 'divergent', nebius: 'clean', vultr: 'clean' },
      'two-pools': { eks: 'clean', gke: 'divergent', nebius: 'clean', vultr: 'clean' },
    });
    expect(report.summary).toMatchObject({ findings: 3, stylistic: 1, behavioral: 2, clean: false });
    const [split] = splitFindings();
    const lopsided = { ...split!, groups: [{ value: ['nodepool-{pool}'], providers: ['eks', 'gke', 'nebius'] }, { value: ['node-pool-{pool}'], providers: ['vultr'] }] };
    expect(buildReport(PROVIDERS, SCENARIOS, [lopsided]).cells.converge).toEqual({ eks: 'clean', gke: 'clean', nebius: 'clean', vultr: 'split' });
  });

  it('an accepted split colors nothing', () => {
    const accepted = splitFindings().map((finding) => ({ ...finding, accepted: { reason: 'both spellings are in use' } }));
    const report = buildReport(PROVIDERS, SCENARIOS, accepted);
    expect(Object.values(report.cells.converge!)).toEqual(['clean', 'clean', 'clean', 'clean']);
    expect(report.summary.clean).toBe(true);
  });

  it('the text report lists its groups once, one line each in words, and its scenario once', () => {
    const text = renderText(buildReport(PROVIDERS, SCENARIOS, splitFindings()), { color: false });
    expect(text).toContain('✗ converge  node-pool key-pattern has no convention  [split:node-pool:key-pattern]');
    expect(text).toContain('      eks, gke: [nodepool-{pool}]\n');
    expect(text).toContain('      nebius, vultr: [node-pool-{pool}]\n');
    // Said once: no JSON of the groups, and the hint does not list them again.
    expect(text).not.toContain('["nodepool-{pool}"]');
    expect(text.split('nodepool-{pool}').length).toBe(2);
    expect(text).not.toMatch(/^\s+convention: /m);
  });

  it('the Markdown report lists its groups once, in words', () => {
    const markdown = renderMarkdown(buildReport(PROVIDERS, SCENARIOS, splitFindings()));
    expect(markdown).toContain('| converge | ✅ clean | ✅ clean | ✅ clean | ✅ clean |');
    expect(markdown).toContain('**⚖️ split** `node-pool`: node-pool key-pattern has no convention<br>');
    expect(markdown).toContain('- nebius, vultr: \\[node-pool-{pool}\\]\n- eks, gke: \\[nodepool-{pool}\\]');
    expect(markdown.split('nodepool-{pool}').length).toBe(2);
  });

  it('the JSON report carries type split and its groups, and validates against the schema', () => {
    const schema = JSON.parse(readFileSync(fileURLToPath(new URL('../../schemas/report.schema.json', import.meta.url)), 'utf8')) as Record<string, unknown>;
    const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);
    const data = JSON.parse(renderJson(buildReport(PROVIDERS, SCENARIOS, splitFindings()))) as { findings: Array<Record<string, unknown>>; cells: Record<string, Record<string, string>> };
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
    expect(data.findings[0]).toMatchObject({ id: 'split:node-pool:key-pattern', type: 'split', class: 'stylistic', groups: [{ providers: ['nebius', 'vultr'] }, { providers: ['eks', 'gke'] }] });
    // Equal groups go by their value's canonical text, never by a provider's name.
    expect(data.findings[0]!.provider).toBeUndefined();
  });
});

describe('accepting a split', () => {
  const options = { strict: true, file: 'goldens/accepted.yaml' };

  it('is accepted by id, or by a facet entry without providers', () => {
    for (const entry of [{ id: 'split:node-pool:key-pattern', reason: 'both in use' }, { facet: 'key-pattern', subject: 'node-pool', reason: 'both in use' }]) {
      const judged = applyAccepted(splitFindings(), [entry], options);
      expect(judged.map((finding) => [finding.id, finding.accepted?.reason])).toEqual([['split:node-pool:key-pattern', 'both in use']]);
    }
  });

  it('a facet entry that names providers accepted their divergences, so it does not accept a split', () => {
    const judged = applyAccepted(splitFindings(), [{ facet: 'key-pattern', subject: 'node-pool', providers: ['nebius', 'vultr'], reason: 'old' }], options);
    expect(judged.find((finding) => finding.type === 'split')!.accepted).toBeUndefined();
    const stale = judged.find((finding) => finding.type === 'accepted-stale')!;
    expect(stale.hint).toContain("what it accepted is now reported as split:node-pool:key-pattern: replace the entry with one for that id");
    expect(stale.hint).toContain("drift accept 'split:node-pool:key-pattern'");
  });

  it('a stale divergence id names the split that replaced it, and a stale split id the divergences', () => {
    const [stale] = applyAccepted(splitFindings(), [{ id: 'div:node-pool:key-pattern:nebius', reason: 'old' }], options).filter((f) => f.type === 'accepted-stale');
    expect(stale!.message).toBe('entry 1 of goldens/accepted.yaml (div:node-pool:key-pattern:nebius) matches no finding any more');
    expect(stale!.hint).toContain('now reported as split:node-pool:key-pattern');
    const divergences = [blamed('gke'), blamed('vultr')];
    const [back] = applyAccepted(divergences, [{ id: 'split:node-pool:labels', reason: 'old' }], options).filter((f) => f.type === 'accepted-stale');
    expect(back!.hint).toContain('now reported as div:node-pool:labels:gke, div:node-pool:labels:vultr');
    // A facet that was divided: the same subject and provider now differ under another facet.
    const [moved] = applyAccepted(divergences, [{ facet: 'metadata', subject: 'node-pool', providers: ['gke'], reason: 'old' }], options).filter((f) => f.type === 'accepted-stale');
    expect(moved!.hint).toContain('now reported as div:node-pool:labels:gke:');
    // An entry whose facet is simply gone keeps the plain advice.
    const [gone] = applyAccepted(divergences, [{ id: 'div:cluster:ready:eks', reason: 'old' }], options).filter((f) => f.type === 'accepted-stale');
    expect(gone!.hint).toBe('remove the entry: what it accepted is gone');
  });

  it("a stale entry whose successor a provider's own change made says to judge that change, never to accept the regression", () => {
    const golden: Finding = { id: 'golden:gke/converge:resources', type: 'golden', class: 'behavioral', provider: 'gke', scenario: 'converge', subject: 'resources', message: 'changed', hint: 'if the change is intended, run `drift update`' };
    const [stale] = applyAccepted([...splitFindings(), golden], [{ id: 'div:node-pool:key-pattern:nebius', reason: 'old' }], options).filter((f) => f.type === 'accepted-stale');
    expect(stale!.hint).toContain('now reported as split:node-pool:key-pattern, since the output of gke changed');
    expect(stale!.hint).toContain('fix gke and the entry matches again');
    expect(stale!.hint).not.toContain("drift accept 'split:node-pool:key-pattern'");
  });
});
