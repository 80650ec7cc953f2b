/** How the text and Markdown reports print a cause, a tipped convention, missing goldens and accepted findings: in few lines, in words. */
import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/compare/findings.js';
import { renderJson } from '../../src/report/json.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { buildReport } from '../../src/report/model.js';
import { renderText } from '../../src/report/text.js';

const PROVIDERS = ['aks', 'eks', 'gke', 'nebius'];
const SCENARIOS = ['converge', 'never-ready', 'two-pools'];
const GATE = 'providers/nebius/function/composer.py:143';

const consequence = (facet: string, value: unknown, consensus: unknown, scenarios: string[]): Finding => ({
  id: `div:cluster:${facet}:nebius`,
  type: 'divergence',
  class: 'behavioral',
  provider: 'nebius',
  scenarios,
  subject: 'cluster',
  facet,
  message: `cluster ${facet} differs from the convention of 3 of 4 providers (aks, eks, gke)`,
  values: { aks: consensus, eks: consensus, gke: consensus, nebius: value },
  consensus,
  where: [GATE, 'aks: providers/aks/function/composer.py:158'],
  hint: `make nebius follow it`,
});
const rule: Finding = { id: 'rule:no-early-ready:nebius:cluster', type: 'rule', class: 'contract', provider: 'nebius', scenario: 'never-ready', subject: 'cluster', facet: 'no-early-ready', message: 'no-early-ready: cluster is marked READY_TRUE the step it is composed', where: [GATE], hint: 'mark it ready once observed Ready' };
const cause = () => [consequence('ready', 0, 1, ['converge', 'never-ready', 'two-pools']), consequence('ready-by', ['composed'], ['observed'], ['converge', 'never-ready', 'two-pools']), rule];

describe('a cause in the reports', () => {
  it('text: one line with its id, one per consequence in words with its id, then where and the one fix; scenarios once', () => {
    const text = renderText(buildReport(PROVIDERS, SCENARIOS, cause()), { color: false });
    const id = `cause:nebius:${GATE}`;
    expect(text).toContain(
      [
        `  ✗ nebius (every scenario)  3 findings from one place in nebius's code  [${id}]`,
        '      · no-early-ready: cluster is marked READY_TRUE the step it is composed (never-ready)  [rule:no-early-ready:nebius:cluster]',
        '      · cluster ready-by: [composed], convention [observed]  [div:cluster:ready-by:nebius]',
        '      · cluster ready: step 0, convention step 1  [div:cluster:ready:nebius]',
        `      at aks: providers/aks/function/composer.py:158 → change ${GATE}, which all 3 come from, so that nebius does what each of them asks; or accept them all: drift accept '${id}' --reason "..."`,
      ].join('\n'),
    );
    expect(text).toContain('contract (1)');
    expect(text).toContain('1 finding (1 contract, 0 behavioral, 0 stylistic; 3 counting each consequence of a cause)');
    // The matrix colors each consequence's cells as if it stood alone.
    expect(text).toMatch(/^never-ready\s+clean\s+clean\s+clean\s+contract$/m);
    expect(text).toMatch(/^converge\s+clean\s+clean\s+clean\s+divergent$/m);
  });

  it('markdown: the cause, its place and fix, its consequences as a list with their ids', () => {
    const markdown = renderMarkdown(buildReport(PROVIDERS, SCENARIOS, cause()));
    expect(markdown).toContain(`**🎯 cause** \`${GATE}\`: 3 findings from one place in nebius's code<br>`);
    expect(markdown).toContain(' · follows it: `aks: providers/aks/function/composer.py:158` · id `cause:nebius:providers/nebius/function/composer.py:143`</sub>');
    expect(markdown).toContain('- cluster ready: step 0, convention step 1 · `div:cluster:ready:nebius`');
    expect(markdown).toContain('<summary>nebius (every scenario): 1 finding</summary>');
  });

  it('accepted for one reason at one place, the findings are one accepted cause: one line, its reason with --verbose', () => {
    const accepted = cause().map((finding) => ({ ...finding, accepted: { reason: 'nebius marks its cluster ready early on purpose' } }));
    const report = buildReport(PROVIDERS, SCENARIOS, accepted);
    expect(report.accepted.map((finding) => finding.id)).toEqual([`cause:nebius:${GATE}`]);
    expect(report.accepted[0]!.accepted).toEqual({ reason: 'nebius marks its cluster ready early on purpose' });
    const text = renderText(report, { color: false });
    expect(text).toContain('accepted (1): --verbose lists each with its reason\n  ~ nebius: cluster (one place)\n');
    expect(text).not.toContain('on purpose');
    expect(renderText(report, { color: false, verbose: true })).toContain('      reason: nebius marks its cluster ready early on purpose');
    const schema = JSON.parse(readFileSync(fileURLToPath(new URL('../../schemas/report.schema.json', import.meta.url)), 'utf8')) as object;
    expect(new Ajv({ strict: true }).compile(schema)(JSON.parse(renderJson(report)))).toBe(true);
  });
});

describe('other findings in few lines', () => {
  it("a new provider's missing goldens are one line, with the one command that writes them", () => {
    const missing = SCENARIOS.map((scenario): Finding => ({ id: `golden-missing:fresh/${scenario}`, type: 'golden', class: 'behavioral', provider: 'fresh', scenario, subject: 'golden', message: `no golden for fresh/${scenario}`, hint: `run \`drift update --provider fresh --scenario ${scenario}\`` }));
    const text = renderText(buildReport([...PROVIDERS, 'fresh'], SCENARIOS, missing), { color: false });
    expect(text).toContain('  ✗ fresh (every scenario)  no golden for fresh in 3 scenarios  [golden-missing:fresh]\n      → review the rendered skeletons, then run `drift update --provider fresh` and commit them\n');
    expect(text).toContain('behavioral (3)');
    expect(renderMarkdown(buildReport([...PROVIDERS, 'fresh'], SCENARIOS, missing))).toContain('no golden for fresh in 3 scenarios');
  });

  it('a tipped convention says what the newcomer does to it, whom it would blame and the decision, and validates', () => {
    const tipped: Finding = {
      id: 'tip:node-pool:labels:fresh',
      type: 'tipped',
      class: 'behavioral',
      provider: 'fresh',
      scenario: 'converge',
      subject: 'node-pool',
      facet: 'labels',
      message: 'with fresh, node-pool labels gets a convention of 3 of 5 providers',
      tipped: { effect: 'form', blames: ['aks', 'eks'], decision: 'lock the convention and fix or accept aks and eks, or accept the split' },
      hint: 'decide',
    };
    const report = buildReport([...PROVIDERS, 'fresh'], SCENARIOS, [tipped]);
    expect(renderText(report, { color: false })).toContain('      fresh forms a convention, blaming aks, eks: lock the convention and fix or accept aks and eks, or accept the split\n');
    expect(renderMarkdown(report)).toContain('**🗳️ tipped convention** `node-pool`');
    const schema = JSON.parse(readFileSync(fileURLToPath(new URL('../../schemas/report.schema.json', import.meta.url)), 'utf8')) as object;
    const validate = new Ajv({ strict: true }).compile(schema);
    const data = JSON.parse(renderJson(report)) as { findings: Array<Record<string, unknown>> };
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
    expect(data.findings[0]!.tipped).toEqual(tipped.tipped);
    expect(validate({ ...data, findings: [{ ...data.findings[0], tipped: { effect: 'topple', blames: [], decision: 'x' } }] })).toBe(false);
  });
});
