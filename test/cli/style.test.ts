/**
 * Stylistic drift in the bundled providers' code, end to end: seeded drifts in a copy of the project,
 * each in one provider, reported by the built `drift diff` as stylistic findings naming that provider,
 * the subject and the file:line. Several drifts share a run, each in a different provider, so every
 * facet still has a two-thirds convention.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDrift } from '../helpers/drift.js';
import { flattened } from '../helpers/consequences.js';
import type { Report } from '../../src/report/model.js';
import { bundledProviders, copyProject, mutate, REPO, replaceExactly, tempProject, type ProjectCopy } from '../helpers/project.js';
import { applyStyleSeeds, foreignNames, pythonNames, pythonTexts, seedLine, STYLE_SEEDS, type StyleSeed } from '../helpers/style.js';
import { STYLE_FACETS } from '../../src/facets/styleFacets.js';

interface JsonFinding {
  id: string;
  type: string;
  class: string;
  provider?: string;
  scenario?: string;
  hint: string;
  message: string;
  facet?: string;
  where?: string[];
}
interface JsonReport {
  findings: JsonFinding[];
  sources?: Record<string, string>;
}

// Each finding on its own: what one place in the code causes is pinned by test/cli/causes.test.ts.
const report = (stdout: string) => flattened(JSON.parse(stdout) as Report) as unknown as JsonReport;
const stylistic = (findings: JsonFinding[]) => findings.filter((finding) => finding.type === 'style' || finding.id.includes('syntax'));
const byId = (findings: JsonFinding[], id: string) => {
  const found = findings.find((finding) => finding.id === id);
  if (!found) throw new Error(`no finding ${id} among ${findings.map((finding) => finding.id).join(', ')}`);
  return found;
};

describe('drift diff on the unmodified tree', () => {
  it('reports no stylistic finding, a clean source row, and exits 0', async () => {
    const run = await runDrift(['diff', '-f', 'json'], REPO);
    expect(run.exitCode, run.stderr).toBe(0);
    const { findings, sources } = report(run.stdout);
    expect(findings.filter((finding) => finding.class === 'stylistic')).toEqual([]);
    expect(sources).toEqual(Object.fromEntries(bundledProviders().map((name) => [name, 'clean'])));
  });
});

describe('seeded drifts: a renamed composer, a camelCase constant, a direct resource write', () => {
  let copy: ProjectCopy;
  beforeAll(() => {
    copy = copyProject({ prefix: 'drift-style-' });
    mutate(copy.dir, 'gke', 'function/composer.py', (text) => replaceExactly(replaceExactly(text, 'def compose_node_pools(self)', 'def _nodepools(self)'), 'self.compose_node_pools()', 'self._nodepools()'));
    mutate(copy.dir, 'eks', 'function/composer.py', (text) => replaceExactly(text, 'VPC_CIDR', 'vpcCidr', 2));
    mutate(copy.dir, 'nebius', 'function/composer.py', (text) =>
      replaceExactly(text, 'resource.update(self.rsp.desired.resources[key], body)', 'self.rsp.desired.resources[key].resource.update(body)'),
    );
  });
  afterAll(() => copy.remove());

  it('names each drift on its provider, in a full run', async () => {
    const run = await runDrift(['diff', '-f', 'json'], copy.dir);
    expect(run.exitCode, run.stderr).toBe(1);
    const { findings, sources } = report(run.stdout);
    const composer = byId(findings, 'style:node-pool:composer:gke');
    expect(composer).toMatchObject({ class: 'stylistic', provider: 'gke' });
    expect(composer.scenario).toBeUndefined();
    // gke has no compose_node_pools any more: the hint points at a follower's code instead of naming it.
    expect(composer.hint).toMatch(/is as \w+ writes it \(providers\/\w+\/function\/composer\.py:\d+\): change providers\/gke\/function\/composer\.py:\d+/);
    expect(composer.message).toContain('compose_node_pools');
    expect(byId(findings, 'style:constants:naming-style:eks').hint).toMatch(/providers\/eks\/function\/composer\.py:\d+ \(vpcCidr\)/);
    expect(byId(findings, 'style:resource-write:idiom:nebius').hint).toMatch(/resource\.update\(desired\.resources\[\]\): change providers\/nebius\/function\/composer\.py:\d+/);
    // The linter agrees about the constant; the outline goldens record every change.
    expect(byId(findings, 'style:lint:ruff-check:eks').message).toContain('N816');
    expect(findings.filter((finding) => finding.id.startsWith('golden:') && finding.id.includes('/outline:')).map((finding) => finding.provider)).toEqual(expect.arrayContaining(['eks', 'gke', 'nebius']));
    // Behaviour did not change: no skeleton differs.
    expect(findings.filter((finding) => finding.scenario !== undefined)).toEqual([]);
    // Only eks, gke and nebius compose a system pool: two of three is no convention, so the renamed
    // composer is a split there, blamed on nobody.
    expect(byId(findings, 'style:system-pool:composer')).toMatchObject({ type: 'split' });
    expect(findings.map((finding) => finding.id)).not.toContain('style:system-pool:composer:gke');
    // Each source cell shows its worst finding: the outline golden changed. The split marks only the
    // providers on its smaller way (gke), and aks and vultr, with no system pool, take no part in it.
    expect(sources).toEqual({ aks: 'clean', eks: 'changed', gke: 'changed', nebius: 'changed', vultr: 'clean' });
  });

  it('judges P against the others’ goldens with -p P, and reports a style finding once with -s S', async () => {
    const alone = await runDrift(['diff', '-p', 'gke', '-f', 'json'], copy.dir);
    expect(alone.exitCode, alone.stderr).toBe(1);
    const findings = report(alone.stdout).findings;
    expect(stylistic(findings).map((finding) => finding.id).sort()).toEqual(['style:node-pool:composer:gke']);
    // eks and nebius, the only established providers with a system pool, are too few voters: a split.
    expect(byId(findings, 'style:system-pool:composer')).toMatchObject({ type: 'split' });
    const one = await runDrift(['diff', '-s', 'converge', '-f', 'json'], copy.dir);
    const ids = report(one.stdout).findings.map((finding) => finding.id);
    expect(ids.filter((id) => id === 'style:constants:naming-style:eks')).toHaveLength(1);
  });
});

describe('seeded drifts: a helper moved, the test helper renamed, results through another helper, a file unformatted, a syntax error', () => {
  let copy: ProjectCopy;
  beforeAll(() => {
    copy = copyProject({ prefix: 'drift-style-' });
    // gke: _credentials_ref moves to function/refs.py; fn.py is left unformatted.
    mutate(copy.dir, 'gke', 'function/composer.py', (text) => {
      const start = text.indexOf('    def _credentials_ref(self)');
      const end = text.indexOf('    def _zones(');
      const moved = text.slice(0, start) + text.slice(end);
      return replaceExactly(replaceExactly(moved, 'self._credentials_ref()', 'refs._credentials_ref(self.credentials)'), 'from crossplane.function.proto.v1 import run_function_pb2 as fnv1\n', 'from crossplane.function.proto.v1 import run_function_pb2 as fnv1\n\nfrom function import refs\n');
    });
    writeFileSync(
      path.join(copy.dir, 'providers/gke/function/refs.py'),
      '"""References to the XR\'s credentials."""\n\n\ndef _credentials_ref(credentials: dict) -> dict:\n    """The providerConfigRef that spec.credentials names."""\n    return {"kind": credentials["kind"], "name": credentials["name"]}\n',
    );
    mutate(copy.dir, 'gke', 'function/fn.py', (text) => replaceExactly(text, 'rsp = response.to(req)', 'rsp = response.to( req )'));
    // eks: the test helper module renamed; its test file does not parse.
    mutate(copy.dir, 'eks', 'tests/test_composer.py', (text) => `${replaceExactly(text, 'from builders import', 'from builder import')}\n\ndef test_unfinished(:\n    pass\n`);
    writeFileSync(path.join(copy.dir, 'providers/eks/tests/builder.py'), '');
    rmSync(path.join(copy.dir, 'providers/eks/tests/builders.py'));
    // nebius: its Normal event added to the response by hand instead of through response.normal.
    mutate(copy.dir, 'nebius', 'function/composer.py', (text) =>
      replaceExactly(text, 'response.normal(self.rsp, f"Waiting for Nebius {kind} {name}")', 'self.rsp.results.add(severity=fnv1.SEVERITY_NORMAL, message=f"Waiting for Nebius {kind} {name}")'),
    );
  });
  afterAll(() => copy.remove());

  it('names each drift on its provider with the file:line to change; the syntax error is a finding, the others still reported', async () => {
    const run = await runDrift(['diff', '-f', 'json'], copy.dir);
    expect(run.exitCode, run.stderr).toBe(1);
    const { findings } = report(run.stdout);
    expect(byId(findings, 'style:_credentials_ref:module:gke').hint).toMatch(/function\/composer\.py: change providers\/gke\/function\/refs\.py:4\b/);
    expect(byId(findings, 'style:package:layout:gke').hint).toMatch(/providers\/gke\/function\/refs\.py:1\b/);
    expect(byId(findings, 'style:format:ruff-format:gke').message).toMatch(/providers\/gke\/function\/fn\.py:\d+/);
    expect(byId(findings, 'style:tests:layout:eks').hint).toMatch(/tests\/builders\.py, tests\/test_composer\.py: change providers\/eks\/tests\/builder\.py:1\b/);
    expect(byId(findings, 'style:tests/test_composer.py:syntax:eks').message).toMatch(/^providers\/eks\/tests\/test_composer\.py:\d+:\d+: the source does not parse$/);
    expect(byId(findings, 'style:results:idiom:nebius').hint).toMatch(/response\.<severity>\(\): change providers\/nebius\/function\/composer\.py:\d+/);
    // Behaviour did not change: the same events, the same skeletons.
    expect(findings.filter((finding) => finding.scenario !== undefined)).toEqual([]);
  });
});

describe('the style seed suite: one seed per style facet over the bundled five', () => {
  // Every seed at once in one copy: each facet is seeded in one provider only, so every facet keeps
  // a convention of four. One full run, and two -p runs whose established providers hold each
  // convention (three that agree, or a pair that agrees).
  let copy: ProjectCopy;
  beforeAll(() => {
    copy = copyProject({ prefix: 'drift-style-seeds-' });
    applyStyleSeeds(copy.dir, STYLE_SEEDS);
  });
  afterAll(() => copy.remove());

  /** The style finding of `seed`'s facet on its provider, with `where` within 3 lines of the seed. */
  const found = (findings: JsonFinding[], seed: StyleSeed): string | undefined => {
    const line = seedLine(copy.dir, seed);
    const file = `providers/${seed.provider}/${seed.at.file}`;
    const near = findings.filter((finding) => finding.type === 'style' && finding.facet === seed.facet && finding.provider === seed.provider);
    const hit = near.find((finding) => {
      const match = /^(.*):(\d+)$/.exec(finding.where?.[0] ?? '');
      return match?.[1] === file && Math.abs(Number(match[2]) - line) <= 3;
    });
    return hit ? undefined : `${seed.provider} ${seed.facet} (${seed.drift}) at ${file}:${line}: ${near.map((finding) => finding.where?.[0]).join(', ') || 'no such finding'}`;
  };

  it('seeds every style facet of the registry', () => {
    expect(new Set(STYLE_SEEDS.map((seed) => seed.facet))).toEqual(new Set(STYLE_FACETS.map((facet) => facet.id)));
  });

  it('finds each seed on its provider, within 3 lines, in a full run', async () => {
    const run = await runDrift(['diff', '-f', 'json', '-s', 'converge'], copy.dir);
    expect(run.exitCode, run.stderr).toBe(1);
    const { findings } = report(run.stdout);
    expect(STYLE_SEEDS.map((seed) => found(findings, seed)).filter(Boolean)).toEqual([]);
    // A follower's place beside each: where the convention is written.
    for (const finding of findings.filter((f) => f.type === 'style' && f.facet !== 'helper-presence' && f.where)) expect(finding.where?.[1]).toMatch(new RegExp(`^(${bundledProviders().join('|')}): providers/\\w+/\\S+:\\d+$`));
    // Stylistic seeds, stylistic findings: no skeleton differs.
    expect(findings.filter((finding) => finding.scenario !== undefined).map((finding) => finding.id)).toEqual([]);
    // No hint names a def, class or constant the judged provider's source does not have.
    const texts = new Map(bundledProviders().map((name) => [name, pythonTexts(path.join(copy.dir, 'providers', name))]));
    const names = pythonNames([...texts.values()].flat());
    expect(findings.filter((finding) => finding.provider !== undefined).flatMap((finding) => foreignNames(finding.hint, names, texts.get(finding.provider!)!).map((name) => `${finding.id}: ${name}`))).toEqual([]);
  });

  it('finds each seed on its provider, within 3 lines, judged against the others’ goldens (-p)', async () => {
    const groups = [['aks', 'eks'], ['gke', 'nebius', 'vultr']];
    const findings = (await Promise.all(groups.map((providers) => runDrift(['diff', '-f', 'json', '-s', 'converge', ...providers.flatMap((p) => ['-p', p])], copy.dir)))).flatMap((run) => report(run.stdout).findings);
    expect(STYLE_SEEDS.map((seed) => found(findings, seed)).filter(Boolean)).toEqual([]);
  });
});

describe('source drift cannot read', () => {
  it('exits 2 naming the adapter and what to do when the source is in a language without a grammar', async () => {
    const project = tempProject({ providers: [path.join(REPO, 'providers/gke/provider.yaml'), path.join(REPO, 'test/fixtures/style/go/provider.yaml')], scenarios: [path.join(REPO, 'scenarios/converge.yaml')] });
    try {
      const run = await runDrift(['diff'], project.dir);
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toMatch(/test\/fixtures\/style\/go\/provider\.yaml: source\.include matches main\.go: drift has no grammar for \.go files\. drift outlines \.py source; point source\.include/);
    } finally {
      project.remove();
    }
  });
});
