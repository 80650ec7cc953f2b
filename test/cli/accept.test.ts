/**
 * `drift accept` as users run it, several at once: no entry lost, no other byte of
 * goldens/accepted.yaml changed, and no entry added that an existing one already covers.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { runDrift, runDriftProcess, type DriftRun } from '../helpers/drift.js';
import { REPO, tempProject } from '../helpers/project.js';

const cleanups: Array<() => void> = [];
afterAll(() => cleanups.forEach((remove) => remove()));


/** A project on the bundled providers and scenarios with its own copy of goldens/accepted.yaml. */
function project(acceptedText?: string): { dir: string; configFile: string; accepted: string } {
  const made = tempProject({ providers: path.join(REPO, 'providers/*/provider.yaml'), scenarios: path.join(REPO, 'scenarios/*.yaml'), goldens: 'goldens' });
  cleanups.push(made.remove);
  const accepted = path.join(made.dir, 'goldens/accepted.yaml');
  mkdirSync(path.dirname(accepted), { recursive: true });
  if (acceptedText === undefined) copyFileSync(path.join(REPO, 'goldens/accepted.yaml'), accepted);
  else writeFileSync(accepted, acceptedText);
  return { ...made, accepted };
}

/** In-process, or as its own process where several drifts must race for the file's lock. */
function accept(configFile: string, id: string, reason: string, env: Record<string, string> = {}, asProcess = false): Promise<DriftRun> {
  const args = ['--config', configFile, 'accept', id, '--reason', reason];
  return asProcess ? runDriftProcess(args, REPO, { CI: 'false', ...env }) : runDrift(args, REPO, { CI: 'false', ...env });
}

/**
 * Drifts racing for accepted.yaml's lock at once: four writers lose an update as surely as eight
 * would, at half the processes (each also writes the contract: ~0.4 CPU-s).
 */
const RACERS = 4;

const entries = (file: string) => (parse(readFileSync(file, 'utf8')) as { accepted: Array<Record<string, unknown>> }).accepted;

describe('drift accept', () => {
  it('4 at once: 4 entries, and every line that was there stays byte-identical', async () => {
    const { configFile, accepted } = project();
    const before = readFileSync(accepted, 'utf8');
    expect(before).toContain('providers: [eks]'); // a flow list a reformatting writer would respace
    const ids = Array.from({ length: RACERS }, (_, i) => `div:widget-${i}:key-pattern:gke`);
    const runs = await Promise.all(ids.map((id, i) => accept(configFile, id, `widget ${i}: "quoted", #not-a-comment, and: a colon`, {}, true)));
    for (const run of runs) expect([run.exitCode, run.stderr]).toEqual([0, '']);
    const after = readFileSync(accepted, 'utf8');
    expect(after.startsWith(before), 'the old text is untouched').toBe(true);
    const added = entries(accepted).slice(entries(accepted).length - RACERS);
    expect(added.map((entry) => entry.id).sort()).toEqual([...ids].sort());
    for (const entry of added) expect(entry.reason).toMatch(/^widget \d: "quoted", #not-a-comment, and: a colon$/);
    expect(entries(accepted)).toHaveLength(parse(before).accepted.length + RACERS);
    expect(existsSync(`${accepted}.lock`), 'no lock left behind').toBe(false);
  }, 120_000);

  it('refuses an id an existing facet entry already covers (exit 2), naming that entry; nothing changes', async () => {
    const { configFile, accepted } = project();
    const before = readFileSync(accepted, 'utf8');
    const run = await accept(configFile, 'div:kubeconfig:writer:eks', 'EKS hands off the kubeconfig elsewhere');
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/div:kubeconfig:writer:eks is already accepted by entry 1 of \S*goldens\/accepted\.yaml \(line 6: facet writer, subject kubeconfig, providers eks; reason: EKS hands off/);
    expect(readFileSync(accepted, 'utf8')).toBe(before);
  }, 60_000);

  it('refuses an id accepted by id already, and a rule id a rule entry covers', async () => {
    const { configFile, accepted } = project('accepted:\n  - id: div:x:key-pattern:gke\n    reason: by design\n  - facet: key-naming\n    providers: [gke]\n    reason: legacy names\n');
    const before = readFileSync(accepted, 'utf8');
    const byId = await accept(configFile, 'div:x:key-pattern:gke', 'again');
    expect(byId.exitCode).toBe(2);
    expect(byId.stderr).toContain('already accepted by entry 1');
    const rule = await accept(configFile, 'rule:key-naming:gke:node-pool', 'again and again');
    expect(rule.exitCode).toBe(2);
    expect(rule.stderr).toContain('already accepted by entry 2');
    expect(readFileSync(accepted, 'utf8')).toBe(before);
  }, 60_000);

  it('keeps comments and flow lists of other layouts, and turns an empty [] into a block list', async () => {
    for (const [text, expected] of [
      ['# keep me\naccepted: []\n', '# keep me\naccepted:\n  - id: div:y:key-pattern:gke\n    reason: by design\n'],
      ['accepted:\n- facet: writer   # odd spacing, kept\n  providers: [ eks ]\n  reason: kept as is\n# trailing comment\n', 'accepted:\n- facet: writer   # odd spacing, kept\n  providers: [ eks ]\n  reason: kept as is\n- id: div:y:key-pattern:gke\n  reason: by design\n# trailing comment\n'],
      ['accepted: [{facet: writer, providers: [eks], reason: kept}]\n', 'accepted: [{facet: writer, providers: [eks], reason: kept}, {"id":"div:y:key-pattern:gke","reason":"by design"}]\n'],
    ] as const) {
      const { configFile, accepted } = project(text);
      const run = await accept(configFile, 'div:y:key-pattern:gke', 'by design');
      expect([run.exitCode, run.stderr]).toEqual([0, '']);
      expect(readFileSync(accepted, 'utf8')).toBe(expected);
    }
  }, 60_000);

  it('takes several ids at once, style and locked ids too, each over every scenario, or only those -s names', async () => {
    const { configFile, accepted, dir } = project('accepted: []\n');
    const run = await runDrift(['--config', configFile, 'accept', 'style:readiness-by:idiom:gke', 'locked:key-pattern:node-pool:gke', 'div:then.0-break-credentials:outcome:aks', '--reason', 'by design'], REPO, { CI: 'false' });
    expect([run.exitCode, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toContain('accepted style:readiness-by:idiom:gke in');
    expect(entries(accepted)).toEqual([
      { id: 'style:readiness-by:idiom:gke', reason: 'by design' },
      { id: 'locked:key-pattern:node-pool:gke', reason: 'by design' },
      { id: 'div:then.0-break-credentials:outcome:aks', reason: 'by design' },
    ]);
    const narrowed = await runDrift(['--config', configFile, 'accept', 'div:cluster:ready:gke', '-s', 'never-ready', '-s', 'converge', '--reason', 'only there'], REPO, { CI: 'false' });
    expect([narrowed.exitCode, narrowed.stderr]).toEqual([0, '']);
    expect(entries(accepted).slice(3)).toEqual([
      { id: 'div:cluster:ready:gke', scenario: 'converge', reason: 'only there' },
      { id: 'div:cluster:ready:gke', scenario: 'never-ready', reason: 'only there' },
    ]);
    // A project that never adopted the generated contract gets none from accept.
    for (const file of ['providers/CONTRACT.md', 'providers/contract.json', 'providers/skills/drift-add-provider/SKILL.md']) expect(existsSync(path.join(dir, file)), file).toBe(false);
    expect(run.stdout).not.toContain('written');
    // The same id in a scenario it is accepted in already is refused.
    expect((await runDrift(['--config', configFile, 'accept', 'div:cluster:ready:gke', '-s', 'converge', '--reason', 'again'], REPO, { CI: 'false' })).exitCode).toBe(2);
  }, 60_000);

  it("a split's accept pins its ways from a render of every provider, and a split reported nowhere is refused", async () => {
    const { configFile, accepted } = project('accepted: []\n');
    const run = await runDrift(['--config', configFile, 'accept', 'split:requirements:requires', '-s', 'converge', '--reason', 'only some read their ProviderConfig'], REPO, { CI: 'false' });
    expect([run.exitCode, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toContain('accepted split:requirements:requires in');
    expect(run.stdout).toContain('its ways pinned: aks, gke, nebius | eks, vultr over 1 scenario');
    expect(entries(accepted)).toEqual([
      {
        facet: 'requires',
        subject: 'requirements',
        scenario: 'converge',
        ways: [
          { providers: ['aks', 'gke', 'nebius'], scenarios: ['converge'], value: ['ClusterProviderConfig'] },
          { providers: ['eks', 'vultr'], scenarios: ['converge'], value: [] },
        ],
        reason: 'only some read their ProviderConfig',
      },
    ]);
    const before = readFileSync(accepted, 'utf8');
    const nowhere = await runDrift(['--config', configFile, 'accept', 'split:node-pool:no-such-facet', '-s', 'converge', '--reason', 'not there'], REPO, { CI: 'false' });
    expect(nowhere.exitCode).toBe(2);
    expect(nowhere.stderr).toContain('split:node-pool:no-such-facet is not reported in converge today');
    expect(readFileSync(accepted, 'utf8')).toBe(before);
  }, 120_000);

  it('refuses, changing nothing, what no entry accepts: golden changes, errors, stale and legacy entries, unknown scenarios', async () => {
    const { configFile, accepted } = project();
    const before = readFileSync(accepted, 'utf8');
    for (const [id, says] of [
      ['golden:gke/converge:resources', 'run `drift update`'],
      ['error:gke/converge', 'fix the provider'],
      ['accepted-stale:15', 'entry 15 of goldens/accepted.yaml'],
      ['accepted-legacy:3', 'entry 3 of goldens/accepted.yaml, which pins no ways or spells its id as an older drift did: run `drift migrate`'],
    ] as const) {
      const run = await runDrift(['--config', configFile, 'accept', 'div:y:key-pattern:gke', id, '--reason', 'by design'], REPO, { CI: 'false' });
      expect(run.exitCode, id).toBe(2);
      expect(run.stderr, id).toContain(says);
      expect(run.stderr, id).toContain('Nothing changed.');
    }
    const unknown = await runDrift(['--config', configFile, 'accept', 'div:y:key-pattern:gke', '-s', 'nowhere', '--reason', 'by design'], REPO, { CI: 'false' });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('-s nowhere: no such scenario');
    expect(readFileSync(accepted, 'utf8')).toBe(before);
  }, 60_000);

  it('creates goldens/accepted.yaml when there is none, and writes nothing under CI', async () => {
    const { configFile, accepted, dir } = project();
    rmSync(accepted);
    const ci = await accept(configFile, 'div:z:key-pattern:gke', 'by design', { CI: 'true' });
    expect(ci.exitCode).toBe(2);
    expect(ci.stderr).toContain('drift never writes goldens in CI');
    expect(existsSync(accepted)).toBe(false);
    expect(existsSync(path.join(dir, 'goldens/accepted.yaml.lock'))).toBe(false);
    const run = await accept(configFile, 'div:z:key-pattern:gke', 'by design');
    expect([run.exitCode, run.stderr]).toEqual([0, '']);
    expect(readFileSync(accepted, 'utf8')).toBe('accepted:\n  - id: div:z:key-pattern:gke\n    reason: by design\n');
  }, 60_000);
});
