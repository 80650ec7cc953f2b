/** The generated contract: deterministic, a valid Agent Skill, and written only from what the team decides. */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { RULE_METAS } from '../../src/compare/rules/index.js';
import { CONTRACT_ROLES } from '../../src/roles/catalog.js';
import { describeRoles } from '../../src/roles/resolve.js';
import { contractFiles } from '../../src/report/contract/files.js';
import { CONTRACT_FILES, SKILL_NAME, type ContractInput } from '../../src/report/contract/contractModel.js';

const INPUT: ContractInput = {
  rules: RULE_METAS,
  roles: describeRoles(),
  providers: [
    { name: 'alpha', xr: { apiVersion: 'example.org/v1', kind: 'AlphaCluster' }, files: { adapter: 'providers/alpha/provider.yaml', function: 'providers/alpha/function', tests: 'providers/alpha/tests' } },
    { name: 'beta', xr: { apiVersion: 'example.org/v1', kind: 'BetaCluster' }, files: { adapter: 'providers/beta/provider.yaml', function: 'providers/beta/function' } },
  ],
  accepted: [
    { facet: 'writer', subject: 'kubeconfig', providers: ['beta'], reason: 'Beta hands the kubeconfig off another way.' },
    { id: 'div:cluster:ready:alpha', reason: 'Alpha clusters report Ready late.' },
    { facet: 'key-pattern', subject: 'node-pool', providers: ['beta'], reason: 'Beta pools are named by its API.' },
  ],
  locked: [{ facet: 'key-pattern', subject: 'node-pool', values: { converge: ['nodepool-{pool}'] }, reason: 'People find pools by this name.' }],
  style: [{ subject: 'node-pool', facet: 'composer', describe: 'the function that composes node-pool', value: 'compose_node_pools', providers: ['alpha', 'beta', 'gamma'] }],
  paths: { contractDir: 'providers', accepted: 'goldens/accepted.yaml', conventions: 'goldens/conventions.yaml' },
};

const byFile = (input: ContractInput) => Object.fromEntries(contractFiles(input).map(({ file, text }) => [file, text]));

describe('contract files', () => {
  it('are the same bytes every time', () => {
    expect(contractFiles(INPUT)).toEqual(contractFiles(structuredClone(INPUT)));
    expect(contractFiles({ ...INPUT, accepted: [...INPUT.accepted].reverse() })).toEqual(contractFiles(INPUT));
  });

  it('hold every rule with its rationale, and every accepted entry with its reason', () => {
    const files = byFile(INPUT);
    const markdown = files[CONTRACT_FILES.markdown]!;
    for (const rule of RULE_METAS) for (const part of [rule.id, rule.rationale, rule.appliesWhen, rule.examples.violation, rule.examples.fix]) expect(markdown).toContain(part);
    for (const entry of INPUT.accepted) expect(markdown).toContain(entry.reason);
    const json = JSON.parse(files[CONTRACT_FILES.json]!) as { rules: unknown; accepted: Array<{ reason: string }> };
    expect(json.rules).toEqual(RULE_METAS);
    expect(json.accepted.map((entry) => entry.reason).sort()).toEqual(INPUT.accepted.map((entry) => entry.reason).sort());
    expect(files[CONTRACT_FILES.markdown]).toContain('[provider.yaml](alpha/provider.yaml)');
  });

  it("change with one rule's rationale, and the skill does not", () => {
    const rules = RULE_METAS.map((rule, index) => (index === 0 ? { ...rule, rationale: '' } : rule));
    const before = byFile(INPUT);
    const after = byFile({ ...INPUT, rules });
    expect(after[CONTRACT_FILES.markdown]).not.toBe(before[CONTRACT_FILES.markdown]);
    expect(after[CONTRACT_FILES.json]).not.toBe(before[CONTRACT_FILES.json]);
    expect(after[CONTRACT_FILES.skill]).toBe(before[CONTRACT_FILES.skill]);
  });
});

describe('the contract document', () => {
  const markdown = byFile(INPUT)[CONTRACT_FILES.markdown]!;

  it('lists each locked convention with its reason and the exceptions accepted for it', () => {
    expect(markdown).toContain('- **`node-pool` key-pattern**: ["nodepool-{pool}"]. Why: People find pools by this name.');
    expect(markdown).toContain('  - exception for beta: Beta pools are named by its API.');
  });

  it("states how the code is written, and leaves the section out when there are no outlines", () => {
    expect(markdown).toContain('| `node-pool` | composer | the function that composes node-pool | `compose_node_pools` |');
    expect(byFile({ ...INPUT, style: [] })[CONTRACT_FILES.markdown]).not.toContain('## How the code is written');
  });

  it('lists every role with what it is', () => {
    expect(INPUT.roles.map((role) => role.role).sort()).toEqual([...CONTRACT_ROLES].sort());
    for (const role of INPUT.roles) expect(role.meaning, role.role).not.toBe(role.role);
    for (const role of INPUT.roles) expect(markdown).toContain(`| \`${role.role}\` | ${role.meaning} |`);
  });
});

describe('the agent skill', () => {
  const skill = byFile(INPUT)[CONTRACT_FILES.skill]!;
  const match = /^---\n([\s\S]*?)\n---\n/.exec(skill);
  const front = parse(match?.[1] ?? '') as { name: string; description: string };

  it('has Agent Skills front matter: a name of lowercase letters, digits and hyphens (at most 64), a description (at most 1,024)', () => {
    expect(match).not.toBeNull();
    expect(Object.keys(front).sort()).toEqual(['description', 'name']);
    expect(front.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(front.name.length).toBeLessThanOrEqual(64);
    expect(front.description.length).toBeGreaterThan(0);
    expect(front.description.length).toBeLessThanOrEqual(1024);
  });

  it("is named like its folder, as the format requires", () => {
    expect(CONTRACT_FILES.skill.split('/').slice(-2, -1)).toEqual([front.name]);
    expect(front.name).toBe(SKILL_NAME);
  });

  it('points at the contract and gives the workflow', () => {
    expect(skill).toContain('(../../CONTRACT.md)');
    for (const step of ['drift new-provider NAME --xrd', 'provider.yaml', 'drift expect -p NAME', 'drift diff -p NAME', 'drift update -p NAME', 'drift accept']) expect(skill).toContain(step);
  });
});
