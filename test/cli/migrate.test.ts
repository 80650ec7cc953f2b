/**
 * `drift migrate` checks, then writes (issue 39, item 4; issue 37, item 3): every limit and parse error
 * before a byte changes, linear in the entries, through a symlinked list, keeping CRLF; every config
 * sharing the list in one run; what it cannot map warned about and left, with the file unchanged;
 * no contract files in a project that never adopted them.
 */
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDrift } from '../helpers/drift.js';
import { copyProject, REPO, type ProjectCopy } from '../helpers/project.js';
import { SEEDS, seeded } from '../helpers/mutationSeeds.js';
import { flattened } from '../helpers/consequences.js';
import type { Report } from '../../src/report/model.js';

const SLOW = 600_000;
const copies: ProjectCopy[] = [];
afterEach(() => {
  for (const copy of copies.splice(0)) copy.remove();
});
function copy(): string {
  const made = copyProject({ prefix: 'drift-migrate-' });
  copies.push(made);
  return made.dir;
}
const acceptedOf = (dir: string) => path.join(dir, 'goldens/accepted.yaml');
const LEGACY_ID = '  - id: div:converge:subnet:key-pattern:eks\n    reason: EKS composes two subnets.\n';

describe('drift migrate refuses before it writes', () => {
  it('a list over the 4 MiB document limit, naming the file', async () => {
    const dir = copy();
    const file = acceptedOf(dir);
    const big = `accepted:\n${LEGACY_ID}${'  - id: div:converge:subnet:key-pattern:eks\n    reason: padding padding padding padding padding padding padding padding padding padding\n'.repeat(45_000)}`;
    writeFileSync(file, big);
    const run = await runDrift(['migrate'], dir);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/goldens\/accepted\.yaml:1:1: has \d+ bytes, more than the 4 MiB/);
    expect(readFileSync(file, 'utf8')).toBe(big);
  }, SLOW);

  it('a duplicate key, at file:line:col and not as an internal error', async () => {
    const dir = copy();
    const file = acceptedOf(dir);
    const text = `accepted:\n${LEGACY_ID}  - facet: writer\n    reason: one\n    reason: two\n`;
    writeFileSync(file, text);
    const run = await runDrift(['migrate'], dir);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/goldens\/accepted\.yaml:6:5: .*Map keys must be unique/);
    expect(run.stderr).not.toContain('internal error');
    expect(readFileSync(file, 'utf8')).toBe(text);
  }, SLOW);
});

describe('drift migrate writes', () => {
  it('through a symlinked goldens/accepted.yaml: the link stays, its file is rewritten', async () => {
    const dir = copy();
    const file = acceptedOf(dir);
    const shared = path.join(dir, 'shared/accepted.yaml');
    mkdirSync(path.dirname(shared));
    writeFileSync(shared, `${readFileSync(file, 'utf8').replace(/\n?$/, '\n')}${LEGACY_ID}`);
    rmSync(file);
    symlinkSync('../shared/accepted.yaml', file);
    const run = await runDrift(['migrate'], dir);
    expect(run.exitCode, run.all).toBe(0);
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(readFileSync(shared, 'utf8')).toContain('  - id: div:subnet:key-pattern:eks\n    scenario: converge\n');
  }, SLOW);

  it('CRLF lines as CRLF, the new scenario line included', async () => {
    const dir = copy();
    const file = acceptedOf(dir);
    writeFileSync(file, `${readFileSync(file, 'utf8').replace(/\n?$/, '\n')}${LEGACY_ID}`.replaceAll('\n', '\r\n'));
    const run = await runDrift(['migrate'], dir);
    expect(run.exitCode, run.all).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('  - id: div:subnet:key-pattern:eks\r\n    scenario: converge\r\n');
    expect(text.replaceAll('\r\n', '')).not.toContain('\n');
  }, SLOW);

  it('31,000 legacy ids in one linear pass', async () => {
    const dir = copy();
    const file = acceptedOf(dir);
    const entries = Array.from({ length: 31_000 }, (_, i) => `  - id: div:converge:subnet:key-pattern:p${i}\n    reason: reason ${i}\n`);
    writeFileSync(file, `accepted:\n${entries.join('')}`);
    const began = performance.now();
    const run = await runDrift(['migrate'], dir);
    const ms = performance.now() - began;
    expect(run.exitCode, run.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('  - id: div:subnet:key-pattern:p30999\n    scenario: converge\n    reason: reason 30999\n');
    // Quadratic, this took minutes; linear it is seconds (docs/limits.md). The bound leaves room for a loaded machine.
    expect(ms).toBeLessThan(60_000);
  }, SLOW);

  it('no contract files into a project that never adopted them', async () => {
    const dir = copy();
    for (const file of ['providers/CONTRACT.md', 'providers/contract.json']) rmSync(path.join(dir, file), { force: true });
    rmSync(path.join(dir, 'providers/skills'), { recursive: true, force: true });
    const file = acceptedOf(dir);
    writeFileSync(file, `${readFileSync(file, 'utf8').replace(/\n?$/, '\n')}${LEGACY_ID}`);
    const run = await runDrift(['migrate'], dir);
    expect(run.exitCode, run.all).toBe(0);
    expect(run.stdout).toContain('written goldens/accepted.yaml');
    expect(run.stdout).not.toMatch(/written .*(CONTRACT|contract|SKILL)/);
    for (const made of ['providers/CONTRACT.md', 'providers/contract.json', 'providers/skills']) expect(existsSync(path.join(dir, made)), made).toBe(false);
  }, SLOW);
});

describe('drift migrate over the configurations sharing one list', () => {
  type Report = { findings: Array<{ id: string; scenario?: string }>; accepted: Array<{ id: string; scenario?: string }> };
  const ids = (findings: Report['findings']) => findings.map((finding) => `${finding.id} ${finding.scenario ?? ''}`).sort();
  async function verdict(dir: string, config: string) {
    const run = await runDrift(['-c', config, 'diff', '--format', 'json'], dir);
    const report = JSON.parse(run.stdout) as Report;
    return { accepted: ids(report.accepted), unaccepted: ids(report.findings.filter((finding) => !finding.id.startsWith('accepted-legacy:'))) };
  }
  function twoConfigs(): string {
    const dir = copy();
    cpSync(path.join(REPO, 'test/fixtures/accepted-legacy.yaml'), acceptedOf(dir));
    const config = (providers: string[]) => `providers: [${providers.map((name) => `providers/${name}/provider.yaml`).join(', ')}]\nscenarios: [scenarios/*.yaml]\ngoldens: goldens\n`;
    writeFileSync(path.join(dir, 'a.yaml'), config(['gke', 'eks', 'aks']));
    writeFileSync(path.join(dir, 'b.yaml'), config(['gke', 'nebius', 'vultr']));
    return dir;
  }

  it('accepts exactly what the old list accepted under both, in one run; a second run changes nothing', async () => {
    const dir = twoConfigs();
    const before = { a: await verdict(dir, 'a.yaml'), b: await verdict(dir, 'b.yaml') };
    expect(before.a.accepted.length + before.b.accepted.length).toBeGreaterThan(0);
    const run = await runDrift(['-c', 'a.yaml', '-c', 'b.yaml', 'migrate'], dir);
    expect(run.exitCode, run.all).toBe(0);
    expect(run.stdout).toContain('written goldens/accepted.yaml');
    expect({ a: await verdict(dir, 'a.yaml'), b: await verdict(dir, 'b.yaml') }).toEqual(before);
    const text = readFileSync(acceptedOf(dir), 'utf8');
    const again = await runDrift(['-c', 'a.yaml', '-c', 'b.yaml', 'migrate'], dir);
    expect(again.stdout).not.toContain('written');
    expect(readFileSync(acceptedOf(dir), 'utf8')).toBe(text);
  }, SLOW);

  it('where one configuration alone pinned ways the other breaks (why migrate takes them all)', async () => {
    const dir = twoConfigs();
    const before = await verdict(dir, 'b.yaml');
    expect((await runDrift(['-c', 'a.yaml', 'migrate'], dir)).exitCode).toBe(0);
    expect((await verdict(dir, 'b.yaml')).unaccepted.length).toBeGreaterThan(before.unaccepted.length);
  }, SLOW);

  it('refuses configurations that keep different lists, changing nothing', async () => {
    const dir = twoConfigs();
    mkdirSync(path.join(dir, 'other'));
    writeFileSync(path.join(dir, 'c.yaml'), 'providers: [providers/gke/provider.yaml]\nscenarios: [scenarios/*.yaml]\ngoldens: other\n');
    const text = readFileSync(acceptedOf(dir), 'utf8');
    const run = await runDrift(['-c', 'a.yaml', '-c', 'c.yaml', 'migrate'], dir);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('keep different accepted lists');
    expect(readFileSync(acceptedOf(dir), 'utf8')).toBe(text);
  }, SLOW);

  it('warns for an entry it cannot map and leaves the file as it is, every time', async () => {
    const dir = copy();
    const file = acceptedOf(dir);
    const text = `${readFileSync(file, 'utf8').replace(/\n?$/, '\n')}  - facet: no-such-facet\n    reason: accepts nothing\n`;
    writeFileSync(file, text);
    for (let run = 0; run < 2; run += 1) {
      const migrate = await runDrift(['migrate'], dir);
      expect(migrate.exitCode, migrate.all).toBe(0);
      expect(migrate.stderr).toMatch(/warning: entry \d+ of goldens\/accepted\.yaml \(.*no-such-facet.*\) accepts nothing today/);
      expect(migrate.stdout).not.toContain('written');
      expect(readFileSync(file, 'utf8')).toBe(text);
    }
  }, SLOW);
});


describe('an id spelled as an older drift did (issue 37, point 9)', () => {
  it('still accepts its finding, is reported until drift migrate respells it, is explained, and drift accept refuses it', async () => {
    const seed = SEEDS.find((one) => one.expected.includes('div:then.0-delete-cluster:outcome:vultr'))!;
    const made = seeded(seed);
    copies.push(made);
    const { dir } = made;
    rmSync(path.join(dir, 'goldens', seed.provider), { recursive: true, force: true });
    const file = acceptedOf(dir);
    const old = 'div:then[0] delete cluster:outcome:vultr';
    // The bundled list may end without a newline; the entries go on lines of their own.
    const original = readFileSync(file, 'utf8').replace(/\n?$/, '\n');
    const entries = seed.expected.map((id) => `  - id: ${JSON.stringify(id === 'div:then.0-delete-cluster:outcome:vultr' ? old : id)}\n    reason: Vultr deletes them itself\n`).join('');
    writeFileSync(file, `${original}${entries}`);
    const count = (original.match(/^ {2}- /gm) ?? []).length;
    const diff = ['diff', '--format', 'json', '-p', seed.provider, ...seed.scenarios.flatMap((name) => ['-s', name])];

    const before = await runDrift([...diff, '--output', path.join(dir, 'before.json')], dir);
    expect(before.exitCode, before.all).toBe(1);
    const report = flattened(JSON.parse(readFileSync(path.join(dir, 'before.json'), 'utf8')) as Report);
    // The old spelling matched: the finding is accepted (its cause's consequence), and only the entry itself fails.
    expect(report.accepted.map((finding) => finding.id)).toContain('div:then.0-delete-cluster:outcome:vultr');
    const legacy = `accepted-legacy:${count + 1 + seed.expected.indexOf('div:then.0-delete-cluster:outcome:vultr')}`;
    expect(report.findings.map((finding) => finding.id)).toEqual([legacy]);
    expect(report.findings[0]!.hint).toContain('drift migrate');

    // drift explain finds the finding the old spelling names.
    const explain = await runDrift(['explain', old, ...seed.scenarios.flatMap((name) => ['-s', name]), '--format', 'json'], dir);
    expect([explain.exitCode, explain.stderr]).toEqual([0, '']);
    expect((JSON.parse(explain.stdout) as { id: string }).id).toBe('div:then.0-delete-cluster:outcome:vultr');

    const accept = await runDrift(['accept', old, '--reason', 'Vultr deletes them itself'], dir);
    expect(accept.exitCode).toBe(2);
    expect(accept.stderr).toContain('this drift prints it as div:then.0-delete-cluster:outcome:vultr');

    const migrate = await runDrift(['migrate'], dir);
    expect([migrate.exitCode, migrate.stderr]).toEqual([0, '']);
    expect(migrate.stdout).toContain(`${old} is now div:then.0-delete-cluster:outcome:vultr, respelled as drift prints it now`);
    expect(readFileSync(file, 'utf8')).toBe(`${original}${entries.replace(JSON.stringify(old), '"div:then.0-delete-cluster:outcome:vultr"')}`);

    const after = await runDrift([...diff, '--output', path.join(dir, 'after.json')], dir);
    expect(after.exitCode).toBe(0);
    expect((JSON.parse(readFileSync(path.join(dir, 'after.json'), 'utf8')) as { findings: unknown[] }).findings).toEqual([]);
  }, SLOW);
});
