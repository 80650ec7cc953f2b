/**
 * drift expect is drift diff's judge printed as a target, and the skill's loop ends clean:
 *   - in new-provider mode (a provider's goldens removed), the lines of `drift expect -p X --unmet` are
 *     the findings of `drift diff -p X`, by id, for every bundled provider and every mutation seed
 *     (each seed over the scenarios it lists);
 *   - a copy of each bundled provider without its goldens, and a newcomer whose ways accepted splits
 *     pin only for others and with one difference its cloud forces, go from `drift expect -p` to exit 0 of `drift diff -p`, then `drift update -p`,
 *     then a clean `drift diff -p`, with exactly the steps the generated skill names.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExpectDocument } from '../../src/cli/expectCommand.js';
import type { Report } from '../../src/report/model.js';
import { runDrift } from '../helpers/drift.js';
import { flattened } from '../helpers/consequences.js';
import { PROVIDERS, SEEDS, seeded } from '../helpers/mutationSeeds.js';
import { copyProject, mutate, REPO, replaceExactly } from '../helpers/project.js';

const SLOW = 300_000;

type Expected = Required<Pick<ExpectDocument, 'met' | 'not met' | 'accepted'>> & ExpectDocument;

const removals: Array<() => void> = [];
afterAll(() => removals.forEach((remove) => remove()));

/** A copy of the bundled project, removed after the file. */
function copy(): string {
  const { dir, remove } = copyProject({ prefix: 'drift-expect-loop-' });
  removals.push(remove);
  return dir;
}

const only = (scenarios: readonly string[]) => scenarios.flatMap((name) => ['-s', name]);
let reports = 0;

async function diff(dir: string, provider: string, scenarios: readonly string[] = []) {
  const output = path.join(dir, `report-${(reports += 1)}.json`);
  const run = await runDrift(['diff', '-p', provider, ...only(scenarios), '--format', 'json', '--output', output], dir);
  if (!existsSync(output)) throw new Error(`drift diff -p ${provider} wrote no report (exit ${run.exitCode}):\n${run.all}`);
  // Each finding on its own, as expect lists requirements: how they group into causes is pinned by test/cli/causes.test.ts.
  return { ...run, report: flattened(JSON.parse(readFileSync(output, 'utf8')) as Report) };
}

async function expectOf(dir: string, provider: string, scenarios: readonly string[] = [], unmet = true) {
  const run = await runDrift(['expect', '-p', provider, ...only(scenarios), ...(unmet ? ['--unmet'] : []), '--format', 'json'], dir);
  expect(run.stderr).not.toMatch(/error/i);
  return { ...run, doc: JSON.parse(run.stdout) as Expected };
}

/**
 * The two commands agree: the ids of expect's unmet lines are the ids of diff's findings (golden ones
 * aside), and both exit alike.
 */
async function agree(dir: string, provider: string, scenarios: readonly string[] = [], unmet = true) {
  const [judged, expected] = [await diff(dir, provider, scenarios), await expectOf(dir, provider, scenarios, unmet)];
  const found = [...new Set(judged.report.findings.filter((finding) => finding.type !== 'golden').map((finding) => finding.id))].sort();
  const notMet = expected.doc.requirements.filter((line) => line.status === 'not met');
  expect([...new Set(notMet.map((line) => line.id))].sort(), judged.all).toEqual(found);
  // --unmet prints exactly the lines not met.
  if (unmet) expect(notMet).toEqual(expected.doc.requirements);
  expect(expected.doc['not met']).toBe(notMet.length);
  expect(expected.exitCode).toBe(judged.exitCode);
  return { judged, expected };
}

describe('drift expect --unmet lists what drift diff -p fails on, in new-provider mode', () => {
  for (const seed of SEEDS) {
    it(`${seed.provider}: ${seed.drift}`, async () => {
      const { dir, remove } = seeded(seed);
      removals.push(remove);
      rmSync(path.join(dir, 'goldens', seed.provider), { recursive: true, force: true });
      const { judged } = await agree(dir, seed.provider, seed.scenarios);
      // The seed is caught, so the agreement is over something.
      expect(judged.exitCode).toBe(1);
    }, SLOW);
  }
});

describe("the skill's loop ends clean", () => {
  it('the generated skill names exactly this loop: expect, expect --unmet, diff -p to exit 0, accept what the cloud forces, update -p, diff -p', async () => {
    const dir = copy();
    const run = await runDrift(['contract'], dir);
    expect(run.exitCode, run.all).toBe(0);
    const skill = readFileSync(path.join(dir, 'providers/skills/drift-add-provider/SKILL.md'), 'utf8');
    const steps = skill.slice(skill.indexOf('## Workflow'), skill.indexOf('## When'));
    for (const command of ['drift expect -p NAME', 'drift expect -p NAME --unmet', 'drift diff -p NAME', 'drift accept', 'drift update -p NAME']) expect(steps).toContain(`\`${command}`);
    expect(steps.indexOf('drift expect -p NAME')).toBeLessThan(steps.indexOf('drift update -p NAME'));
  });

  for (const provider of PROVIDERS) {
    it(`${provider}, its goldens removed: expect meets everything, diff -p exits 0 with the note, update -p, then diff -p is clean`, async () => {
      const dir = copy();
      rmSync(path.join(dir, 'goldens', provider), { recursive: true, force: true });
      const { judged, expected: full } = await agree(dir, provider, [], false);
      expect(full.exitCode, full.all).toBe(0);
      expect(full.doc['not met']).toBe(0);
      // Small enough to read: one line per distinct requirement, not one per scenario.
      expect(full.doc.requirements.length).toBeLessThan(400);
      expect(new Set(full.doc.requirements.map((line) => `${line.id} ${line.expect} ${line.by}`)).size).toBe(full.doc.requirements.length);
      expect(judged.exitCode, judged.all).toBe(0);
      expect(judged.report.notes).toEqual([expect.stringContaining(`new provider: goldens not written yet (${provider})`)]);
      await updateThenClean(dir, provider);
    }, SLOW);
  }

  it('a newcomer (nebius under another name, with one difference its cloud forces) is told each accepted way it joins and the difference; accepting each as its hint says, it ends clean', async () => {
    const dir = copy();
    cpSync(path.join(dir, 'providers/nebius'), path.join(dir, 'providers/acme'), { recursive: true });
    const adapter = path.join(dir, 'providers/acme/provider.yaml');
    writeFileSync(adapter, replaceExactly(readFileSync(adapter, 'utf8'), '\nname: nebius\n', '\nname: acme\n'));
    // acme's scheduler places H100 nodes by a label of its own (only two-pools asks for an H100), written in the house style.
    mutate(dir, 'acme', 'function/composer.py', (text) =>
      replaceExactly(text, '            labels["modelplane.ai/gpu"] = pool["gpu"]["type"]\n', '            labels["modelplane.ai/gpu"] = pool["gpu"]["type"]\n            if pool["gpu"]["type"].startswith("nvidia-h100"):\n                labels["acme.cloud/h100"] = "true"\n'),
    );
    const format = spawnSync(path.join(REPO, '.venv/bin/ruff'), ['format', '--quiet', path.join(dir, 'providers/acme/function/composer.py')]);
    expect(format.status, String(format.stderr)).toBe(0);
    const { expected, judged: first } = await agree(dir, 'acme');
    // Nebius's ways of the pinned splits (accepted for nebius, not for acme), and the label; requires is
    // not among them: acme joins its largest way (aks, gke and nebius), which needs no reason of its own.
    const unmet = expected.doc.requirements.map((line) => line.id);
    expect(unmet).not.toContain('div:requirements:requires:acme');
    expect(unmet).toContain('div:node-pool:intent:acme');
    expect(expected.doc.requirements.find((line) => line.id === 'div:node-pool:labels:acme')).toMatchObject({ notMetIn: ['two-pools'] });
    expect(expected.exitCode).toBe(1);
    for (const line of expected.doc.requirements) {
      // A joined way's hint prints its drift accept; a plain divergence (acme alone differs) is accepted by its finding's id, as the skill says.
      const printed = /drift accept '([^']+)'/.exec(line.hint ?? '')?.[1];
      const id = printed ?? first.report.findings.find((finding) => finding.id === line.id)?.id;
      expect(id, line.hint).toBeDefined();
      expect(printed === undefined).toBe(line.facet === 'labels');
      const reason = line.facet === 'labels' ? "acme's scheduler places H100 nodes by acme.cloud/h100" : 'acme reads its identity Secret from its ProviderConfig, as Nebius does';
      const accept = await runDrift(['accept', id!, '--reason', reason], dir);
      expect(accept.exitCode, accept.all).toBe(0);
    }
    const after = await expectOf(dir, 'acme', [], false);
    expect(after.doc['not met'], after.stdout).toBe(0);
    expect(after.doc.requirements.filter((line) => line.id === 'div:requirements:requires:acme').every((line) => line.status === 'accepted')).toBe(true);
    expect(after.doc.requirements.find((line) => line.id === 'div:node-pool:labels:acme' && line.scenarios.includes('two-pools'))).toMatchObject({ status: 'accepted', accepted: "acme's scheduler places H100 nodes by acme.cloud/h100" });
    const { judged } = await agree(dir, 'acme');
    expect(judged.exitCode, judged.all).toBe(0);
    await updateThenClean(dir, 'acme');
  }, SLOW);
});

/** The loop's last steps: `drift update -p NAME` writes goldens and the contract; `drift diff -p NAME` then exits 0 with no finding and no note. */
async function updateThenClean(dir: string, provider: string) {
  const update = await runDrift(['update', '-p', provider], dir);
  expect(update.exitCode, update.all).toBe(0);
  expect(existsSync(path.join(dir, 'goldens', provider, 'converge.yaml'))).toBe(true);
  const clean = await diff(dir, provider);
  expect(clean.exitCode, clean.all).toBe(0);
  expect(clean.report.findings).toEqual([]);
  expect(clean.report.notes ?? []).toEqual([]);
}
