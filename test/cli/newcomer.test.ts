/**
 * The newcomer loop the skill states, through the built CLI: a provider with no goldens goes from
 * `drift diff -p` (a note, exit 0 when nothing else is wrong) to `drift update -p` (goldens and the
 * contract in one step) to a clean `drift diff -p`; a newcomer that joins a pinned way of an accepted
 * split is told so by name, and `drift accept` of that id pins it there.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { AcceptedEntry } from '../../src/compare/acceptance.js';
import { runDrift } from '../helpers/drift.js';
import { bundledProviders, copyProject, REPO } from '../helpers/project.js';

const SLOW = 600_000;
const copies: Array<() => void> = [];
afterAll(() => copies.forEach((remove) => remove()));

function copy(): string {
  const { dir, remove } = copyProject({ prefix: 'drift-newcomer-' });
  copies.push(remove);
  return dir;
}

describe('the newcomer loop', () => {
  it.each(bundledProviders())('%s with its goldens removed: diff -p exits 0 with the note, update -p writes goldens and contract, diff -p is clean', async (provider) => {
    const dir = copy();
    const before = readFileSync(path.join(dir, 'providers/contract.json'), 'utf8');
    rmSync(path.join(dir, 'goldens', provider), { recursive: true, force: true });

    const first = await runDrift(['diff', '-p', provider], dir);
    expect(first.stdout).toContain(`note: new provider: goldens not written yet (${provider})`);
    expect(first.exitCode, first.all).toBe(0);
    // Under CI a missing golden still fails.
    expect((await runDrift(['diff', '-p', provider], dir, { CI: 'true' })).exitCode).toBe(1);

    const update = await runDrift(['update', '-p', provider], dir);
    expect(update.exitCode, update.all).toBe(0);
    expect(update.stdout).toContain('outlines: 1 added');
    // The contract is regenerated in the same step: the copy's is the committed one again.
    expect(readFileSync(path.join(dir, 'providers/contract.json'), 'utf8')).toBe(before);
    expect((await runDrift(['contract', '--check'], dir)).exitCode).toBe(0);

    const last = await runDrift(['diff', '-p', provider], dir);
    expect(last.exitCode, last.all).toBe(0);
    expect(last.stdout).not.toContain('new provider');
  }, SLOW);

  it('a newcomer joining a pinned way is named with who holds it and why; drift accept pins it there', async () => {
    const dir = copy();
    // acme: Vultr's function and adapter under another name, so it takes Vultr's side of every split.
    cpSync(path.join(dir, 'providers/vultr'), path.join(dir, 'providers/acme'), { recursive: true });
    const adapter = path.join(dir, 'providers/acme/provider.yaml');
    writeFileSync(adapter, readFileSync(adapter, 'utf8').replace(/^name: vultr$/m, 'name: acme'));
    const id = 'div:requirements:requires:acme';

    const before = await runDrift(['diff', '-p', 'acme', '-s', 'converge', '--format', 'json'], dir);
    const report = JSON.parse(before.stdout) as { findings: Array<{ id: string; message: string; hint: string; provider?: string }> };
    const joined = report.findings.find((finding) => finding.id === id);
    expect(joined, before.all).toBeDefined();
    expect(joined!.message).toBe('requirements requires: acme joins the accepted way of eks and vultr (none)');
    expect(joined!.hint).toContain('like eks and vultr, accepted for them because A function requires its ProviderConfig only when');
    expect(joined!.hint).toContain('or follow aks, gke and nebius ([ClusterProviderConfig])');
    // Nothing blames a provider other than acme.
    expect(report.findings.filter((finding) => finding.provider !== undefined && finding.provider !== 'acme')).toEqual([]);

    const accept = await runDrift(['accept', id, '--reason', 'Acme reads nothing from its ProviderConfig'], dir);
    expect(accept.exitCode, accept.all).toBe(0);
    const entries = (parse(readFileSync(path.join(dir, 'goldens/accepted.yaml'), 'utf8')) as { accepted: AcceptedEntry[] }).accepted;
    const requires = entries.find((entry) => entry.facet === 'requires')!;
    const none = requires.ways!.find((way) => Array.isArray(way.value) && way.value.length === 0)!;
    expect(none.providers).toEqual(['acme', 'eks', 'vultr']);
    expect(none.reasons).toEqual({ acme: 'Acme reads nothing from its ProviderConfig' });

    const after = await runDrift(['diff', '-p', 'acme', '-s', 'converge', '--format', 'json'], dir);
    const ids = (JSON.parse(after.stdout) as { findings: Array<{ id: string }> }).findings.map((finding) => finding.id);
    expect(ids).not.toContain(id);
    expect(ids).toContain('div:status:identity-entry:acme');

    // Re-accepting says what changed, or that nothing did.
    const same = await runDrift(['accept', id, '--reason', 'Acme reads nothing from its ProviderConfig'], dir);
    expect(same.exitCode).toBe(2);
    expect(same.stderr).toContain('is already accepted by entry');
    expect(same.stderr).toContain('Nothing changed.');
    const reworded = await runDrift(['accept', id, '--reason', 'Acme reads nothing from it'], dir);
    expect(reworded.exitCode, reworded.all).toBe(0);
    expect(reworded.stdout).toContain(`acme's reason was "Acme reads nothing from its ProviderConfig", now "Acme reads nothing from it"`);
  }, SLOW);

  it('a newcomer joining the largest way of an accepted split gets no finding on it; the smaller way still asks', async () => {
    const dir = copy();
    // acme: GKE's function and adapter under another name: it joins aks, gke and nebius on requires, the largest way.
    cpSync(path.join(dir, 'providers/gke'), path.join(dir, 'providers/acme'), { recursive: true });
    const adapter = path.join(dir, 'providers/acme/provider.yaml');
    writeFileSync(adapter, readFileSync(adapter, 'utf8').replace(/^name: gke$/m, 'name: acme'));
    const run = await runDrift(['diff', '-p', 'acme', '-s', 'converge', '--format', 'json'], dir);
    const report = JSON.parse(run.stdout) as { findings: Array<{ id: string }>; accepted: Array<{ id: string; accepted: { reason: string } }> };
    expect(report.findings.map((finding) => finding.id), run.all).not.toContain('div:requirements:requires:acme');
    const accepted = report.accepted.find((finding) => finding.id === 'div:requirements:requires:acme');
    expect(accepted?.accepted.reason).toMatch(/^joins the largest way of entry \d+ of goldens\/accepted\.yaml: A function requires its ProviderConfig/);
  }, SLOW);
});

describe('drift migrate', () => {
  it('pins the ways of facet-wide entries as goldens/accepted.yaml has them, reports unmigrated entries, and is idempotent', async () => {
    const dir = copy();
    const file = path.join(dir, 'goldens/accepted.yaml');
    const migrated = readFileSync(file, 'utf8');
    // The file as it was before its entries were pinned.
    cpSync(path.join(REPO, 'test/fixtures/accepted-legacy.yaml'), file);

    const legacy = await runDrift(['diff', '-s', 'converge', '--format', 'json'], dir);
    const reported = (JSON.parse(legacy.stdout) as { findings: Array<{ id: string; hint: string }> }).findings.filter((finding) => finding.id.startsWith('accepted-legacy:'));
    expect(reported.map((finding) => finding.id)).toEqual(['accepted-legacy:10', 'accepted-legacy:5', 'accepted-legacy:6', 'accepted-legacy:7', 'accepted-legacy:8', 'accepted-legacy:9']);
    expect(reported[0]!.hint).toContain('drift migrate');
    expect(legacy.exitCode).toBe(1);

    const first = await runDrift(['migrate'], dir);
    expect(first.exitCode, first.all).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(migrated);
    const again = await runDrift(['migrate'], dir);
    expect(again.stdout).toContain('nothing to migrate');
    expect(readFileSync(file, 'utf8')).toBe(migrated);
    expect((await runDrift(['migrate'], dir, { CI: 'true' })).exitCode).toBe(2);
  }, SLOW);

  it('rewrites accepted ids of an older drift in place, with the scenario they named beside them, without rendering; accept refuses such an id', async () => {
    const dir = copy();
    const file = path.join(dir, 'goldens/accepted.yaml');
    const current = readFileSync(file, 'utf8').replace(/\n?$/, '\n');
    writeFileSync(file, `${current}  - id: div:converge:subnet:key-pattern:eks # written by drift 0\n    reason: EKS composes two subnets.\n`);

    const accept = await runDrift(['accept', 'rule:nothing-dropped:vultr/cluster-lost:nodepool-gpu', '--reason', 'an old id'], dir);
    expect(accept.exitCode).toBe(2);
    expect(accept.stderr).toContain('this drift reports it as rule:nothing-dropped:vultr:nodepool-gpu');

    const first = await runDrift(['migrate'], dir);
    expect(first.exitCode, first.all).toBe(0);
    expect(first.stdout).toContain('div:converge:subnet:key-pattern:eks is now div:subnet:key-pattern:eks, kept to scenario converge');
    expect(readFileSync(file, 'utf8')).toBe(`${current}  - id: div:subnet:key-pattern:eks # written by drift 0\n    scenario: converge\n    reason: EKS composes two subnets.\n`);
    const again = await runDrift(['migrate'], dir);
    expect(again.stdout).toContain('nothing to migrate');
  }, SLOW);
});
