import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/compare/findings.js';
import { renderJson } from '../../src/report/json.js';
import { buildReport } from '../../src/report/model.js';
import { renderReport } from '../../src/report/formats.js';
import { PROVIDERS, SCENARIOS, syntheticFindings } from '../helpers/reports.js';

const schema = JSON.parse(readFileSync(fileURLToPath(new URL('../../schemas/report.schema.json', import.meta.url)), 'utf8')) as Record<string, unknown>;
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);

function assertValid(data: unknown): void {
  const ok = validate(data);
  expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
  expect(ok).toBe(true);
}

/** Every kind of finding: each type and class, with and without provider/scenario, values, consensus, diff. */
function variedFindings(): Finding[] {
  return [
    ...syntheticFindings(12),
    { id: 'error:gke/default', type: 'error', class: 'contract', provider: 'gke', scenario: 'default', subject: 'render', message: 'gke exited with code 1', hint: 'run `drift render --provider gke --scenario default`' },
    { id: 'rule:status.ready', type: 'rule', class: 'contract', subject: 'status.ready', message: 'no provider sets status.ready', hint: 'set it' },
    { id: 'stale:x', type: 'accepted-stale', class: 'stylistic', subject: 'goldens/accepted.yaml', message: 'x matches nothing', hint: 'remove it' },
    {
      id: 'divergence:default:zones',
      type: 'divergence',
      class: 'behavioral',
      scenario: 'default',
      subject: 'pool.zones',
      message: 'zones differ',
      values: { nebius: { z: [1, 2], a: null }, eks: 'three', gke: undefined },
      consensus: null,
      hint: 'align them',
    },
    { id: 'acc:1', type: 'golden', class: 'stylistic', provider: 'eks', scenario: 'gpu-pool', subject: 'golden', message: 'not canonical', hint: 'update', accepted: { reason: 'formatting is harmless' } },
    { id: 'acc:2', type: 'divergence', class: 'behavioral', scenario: 'default', subject: 'x', message: 'y', values: { eks: 1, gke: 2 }, hint: 'z', accepted: { reason: 'by design' } },
  ];
}

describe('JSON report', () => {
  it('validates against schemas/report.schema.json', () => {
    const report = buildReport(PROVIDERS, SCENARIOS, variedFindings());
    expect(report.accepted).toHaveLength(2);
    const text = renderJson(report);
    expect(text.endsWith('}\n')).toBe(true);
    assertValid(JSON.parse(text));
  });

  it('validates a clean report too, and is what --format json writes', () => {
    const report = buildReport(PROVIDERS, SCENARIOS, []);
    const text = renderReport(report, 'json');
    expect(text).toBe(renderJson(report));
    const data = JSON.parse(text) as { summary: { clean: boolean } };
    assertValid(data);
    expect(data.summary.clean).toBe(true);
  });

  it('writes keys in a fixed order, whatever order the findings were built with', () => {
    const findings = variedFindings();
    const shuffled = [...findings].reverse().map((finding) => Object.fromEntries(Object.entries(finding).reverse()) as unknown as Finding);
    const a = renderJson(buildReport(PROVIDERS, SCENARIOS, findings));
    const b = renderJson(buildReport(PROVIDERS, SCENARIOS, shuffled));
    expect(b).toBe(a);
    const data = JSON.parse(a) as { findings: Array<Record<string, unknown>>; summary: object };
    expect(Object.keys(data)).toEqual(['schemaVersion', 'tool', 'providers', 'scenarios', 'cells', 'findings', 'accepted', 'candidates', 'summary']);
    expect(Object.keys(data.summary)).toEqual(['findings', 'consequences', 'contract', 'behavioral', 'stylistic', 'accepted', 'clean']);
    const order = ['id', 'type', 'class', 'provider', 'scenario', 'subject', 'message', 'values', 'consensus', 'diff', 'hint', 'accepted'];
    for (const finding of data.findings) {
      const keys = Object.keys(finding);
      expect(keys).toEqual(order.filter((key) => keys.includes(key)));
    }
    const zones = data.findings.find((finding) => finding.id === 'divergence:default:zones')!;
    expect(JSON.stringify(zones.values)).toBe('{"eks":"three","nebius":{"a":null,"z":[1,2]}}');
    expect(zones.consensus).toBeNull();
  });

  it('writes a cause with its consequences whole, in the same key order, and validates', () => {
    const at = (id: string, subject: string): Finding => ({ id, type: 'divergence', class: 'behavioral', provider: 'gke', scenario: 'default', subject, facet: 'gated-on', message: `${subject} gated-on differs`, values: { gke: ['credentials'], eks: [] }, consensus: [], where: ['providers/gke/function/composer.py:88', 'eks: providers/eks/function/composer.py:97'], hint: 'follow it' });
    const report = buildReport(PROVIDERS, SCENARIOS, [at('div:cluster:gated-on:gke', 'cluster'), at('div:network:gated-on:gke', 'network')]);
    const data = JSON.parse(renderJson(report)) as { findings: Array<Record<string, unknown> & { consequences: Array<Record<string, unknown>> }>; summary: Record<string, number> };
    assertValid(data);
    expect(data.findings).toHaveLength(1);
    const [cause] = data.findings;
    expect(cause).toMatchObject({ id: 'cause:gke:providers/gke/function/composer.py:88', type: 'cause', class: 'behavioral', provider: 'gke', scenarios: ['default'], where: ['providers/gke/function/composer.py:88', 'eks: providers/eks/function/composer.py:97'] });
    expect(Object.keys(cause!).at(-1)).toBe('consequences');
    expect(cause!.consequences.map((one) => one.id)).toEqual(['div:cluster:gated-on:gke', 'div:network:gated-on:gke']);
    expect(Object.keys(cause!.consequences[0]!)).toEqual(['id', 'type', 'class', 'provider', 'scenario', 'subject', 'facet', 'message', 'values', 'consensus', 'where', 'hint']);
    expect(data.summary).toMatchObject({ findings: 1, consequences: 2, behavioral: 1 });
    // A cause of one consequence is no cause.
    expect(validate(JSON.parse(JSON.stringify({ ...data, findings: [{ ...cause, consequences: cause!.consequences.slice(0, 1) }] })))).toBe(false);
  });

  it('rejects what is not a report', () => {
    const report = JSON.parse(renderJson(buildReport(PROVIDERS, SCENARIOS, variedFindings()))) as Record<string, unknown> & {
      findings: Array<Record<string, unknown>>;
      accepted: Array<Record<string, unknown>>;
    };
    const broken = [
      { ...report, schemaVersion: 4 },
      { ...report, tool: 'other' },
      { ...report, findings: [{ ...report.findings[0], accepted: { reason: 'x' } }] },
      { ...report, accepted: [{ ...report.accepted[0], accepted: undefined }] },
      { ...report, findings: [{ ...report.findings[0], class: 'cosmetic' }] },
      { ...report, cells: { default: { eks: 'Fine!' } } },
      { ...report, findings: [{ ...report.findings[0], type: 'Split <b>' }] },
    ].map((data) => JSON.parse(JSON.stringify(data)) as unknown);
    for (const data of broken) expect(validate(data)).toBe(false);
  });

  it("accepts what a newer drift may add without a version bump: fields, finding types, cell states", () => {
    const report = JSON.parse(renderJson(buildReport(PROVIDERS, SCENARIOS, variedFindings()))) as Record<string, unknown> & { findings: Array<Record<string, unknown>> };
    const newer = { ...report, newField: { any: 'thing' }, cells: { default: { eks: 'quarantined' } }, findings: [{ ...report.findings[0], type: 'quarantine', cohorts: [['eks'], ['gke']] }] };
    assertValid(JSON.parse(JSON.stringify(newer)));
  });

  it('describes every field', () => {
    const missing: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (typeof node !== 'object' || node === null) return;
      const record = node as Record<string, unknown>;
      for (const [name, sub] of Object.entries((record.properties as Record<string, Record<string, unknown>>) ?? {})) {
        if (typeof sub.description !== 'string' || sub.description.length < 10) missing.push(`${at}.${name}`);
        walk(sub, `${at}.${name}`);
      }
      for (const [name, sub] of Object.entries((record.definitions as Record<string, unknown>) ?? {})) walk(sub, `#/definitions/${name}`);
    };
    walk(schema, '#');
    expect(missing).toEqual([]);
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
  });
});
