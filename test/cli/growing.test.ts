/**
 * A growing set (issue 37's "done when"): a newcomer never breaks the others unseen. For a renamed copy
 * of each bundled provider and for an independently styled newcomer (test/fixtures/style-idioms/modular),
 * the loop providers/skills/drift-add-provider/SKILL.md lists is run through the built CLI: `drift diff
 * -p NEW` until it exits 0 (accepting what NEW's cloud forces, running the one command each `tipped`
 * finding names), then `drift update -p NEW`; the full `drift diff` then exits 0 too, in at most eight
 * drift commands.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/compare/findings.js';
import type { Report } from '../../src/report/model.js';
import { runDrift } from '../helpers/drift.js';
import { PROVIDERS } from '../helpers/mutationSeeds.js';
import { copyProject, REPO } from '../helpers/project.js';

const SLOW = 600_000;
const copies: Array<() => void> = [];
afterAll(() => copies.forEach((remove) => remove()));

/** A printed command (`drift accept 'a' 'b' --reason "..."`) as drift's arguments, the reason filled in. */
function argumentsOf(command: string, reason: string): string[] {
  const words = [...command.matchAll(/'((?:[^']|'\\'')*)'|"([^"]*)"|(\S+)/g)].map((match) => (match[1] !== undefined ? match[1].replaceAll("'\\''", "'") : (match[2] ?? match[3])!));
  expect(words[0], command).toBe('drift');
  return words.slice(1).map((word) => (word === '...' ? reason : word));
}

interface Loop {
  commands: string[];
  tipped: Finding[];
  full: Report;
  fullExit: number;
}

/** The newcomer's loop in `dir` for provider `name`, then the full run. */
async function newcomerLoop(dir: string, name: string): Promise<Loop> {
  const commands: string[] = [];
  const tipped: Finding[] = [];
  let reports = 0;
  const drift = async (args: string[]) => {
    commands.push(args.join(' '));
    return runDrift(args, dir);
  };
  const diff = async (args: string[]) => {
    const output = path.join(dir, `report-${(reports += 1)}.json`);
    const run = await drift(['diff', ...args, '--format', 'json', '--output', output]);
    return { ...run, report: JSON.parse(readFileSync(output, 'utf8')) as Report };
  };
  let loop = await diff(['-p', name]);
  for (let round = 0; loop.exitCode !== 0 && round < 2; round += 1) {
    // What NEW's own findings ask, accepted at once (for a renamed copy: what its original's cloud forces).
    // A split it takes part in (no convention with it) is accepted with its ways, as its hint says.
    const own = loop.report.findings.filter((finding) => (finding.provider === name && finding.type !== 'tipped') || finding.type === 'split').map((finding) => finding.id);
    if (own.length) expect((await drift(['accept', ...own, '--reason', `${name} does this as its cloud requires`])).exitCode).toBe(0);
    // Each tipped finding names the one decision it asks.
    for (const finding of loop.report.findings.filter((f) => f.type === 'tipped')) {
      tipped.push(finding);
      const decided = await drift(argumentsOf(finding.tipped!.decision, `the established providers keep their way beside ${name}`));
      expect(decided.exitCode, decided.all).toBe(0);
    }
    loop = await diff(['-p', name]);
  }
  expect(loop.exitCode, JSON.stringify(loop.report.findings.map((finding) => finding.id))).toBe(0);
  expect((await drift(['update', '-p', name])).exitCode).toBe(0);
  const full = await diff([]);
  return { commands, tipped, full: full.report, fullExit: full.exitCode };
}

describe('a growing set: the newcomer loop ending clean means the full run is clean', () => {
  for (const original of PROVIDERS) {
    it(`a renamed copy of ${original}`, async () => {
      const { dir, remove } = copyProject({ prefix: `drift-growing-${original}-` });
      copies.push(remove);
      const name = `${original}next`;
      cpSync(path.join(dir, 'providers', original), path.join(dir, 'providers', name), { recursive: true });
      const adapter = path.join(dir, 'providers', name, 'provider.yaml');
      writeFileSync(adapter, readFileSync(adapter, 'utf8').replace(new RegExp(`^name: ${original}$`, 'm'), `name: ${name}`));
      const loop = await newcomerLoop(dir, name);
      expect(loop.full.findings.map((finding) => finding.id), loop.commands.join('\n')).toEqual([]);
      expect(loop.fullExit).toBe(0);
      expect(loop.commands.length, loop.commands.join('\n')).toBeLessThanOrEqual(8);
      // The measured case: a second gke makes "no _identity_secret helper" a convention that blames aks and nebius.
      if (original === 'gke') expect(loop.tipped.map((finding) => finding.id)).toContain(`tip:_identity_secret:helper-presence:${name}`);
      for (const finding of loop.tipped) expect(finding.tipped!.blames.every((provider) => provider !== name)).toBe(true);
    }, SLOW);
  }

  it('in a full run, a provider whose goldens are not committed yet: what exists only with it is one tipped decision, not a finding per established provider', async () => {
    const { dir, remove } = copyProject({ prefix: 'drift-growing-git-' });
    copies.push(remove);
    const git = (...args: string[]) => {
      const done = spawnSync('git', ['-c', 'user.email=drift@example.com', '-c', 'user.name=drift', ...args], { cwd: dir, encoding: 'utf8' });
      expect(done.status, done.stderr).toBe(0);
    };
    writeFileSync(path.join(dir, '.gitignore'), '.venv\n');
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'the bundled five');
    cpSync(path.join(dir, 'providers', 'gke'), path.join(dir, 'providers', 'acme'), { recursive: true });
    const adapter = path.join(dir, 'providers', 'acme', 'provider.yaml');
    writeFileSync(adapter, readFileSync(adapter, 'utf8').replace(/^name: gke$/m, 'name: acme'));
    expect((await runDrift(['update', '-p', 'acme'], dir)).exitCode).toBe(0);
    const report = async () => {
      const run = await runDrift(['diff', '--format', 'json'], dir);
      return { exitCode: run.exitCode, findings: (JSON.parse(run.stdout) as Report).findings };
    };
    const uncommitted = await report();
    expect(uncommitted.exitCode).toBe(1);
    const tipped = uncommitted.findings.filter((finding) => finding.type === 'tipped');
    expect(tipped.map((finding) => [finding.id, finding.tipped!.blames])).toEqual([['tip:_identity_secret:helper-presence:acme', ['aks', 'nebius']]]);
    expect(uncommitted.findings.filter((finding) => finding.provider === 'aks' || finding.provider === 'nebius')).toEqual([]);
    // Committed, acme is established: the full run judges everyone alike and blames aks and nebius.
    git('add', '-A');
    git('commit', '-qm', 'acme');
    const committed = await report();
    expect(committed.findings.map((finding) => finding.id)).toEqual(expect.arrayContaining(['style:_identity_secret:helper-presence:aks', 'style:_identity_secret:helper-presence:nebius']));
    expect(committed.findings.filter((finding) => finding.type === 'tipped')).toEqual([]);
  }, SLOW);

  it("says when an adapter still holds a draft's TODO placeholders, naming each line, in diff and expect", async () => {
    const { dir, remove } = copyProject({ prefix: 'drift-growing-todo-' });
    copies.push(remove);
    const adapter = path.join(dir, 'providers', 'gke', 'provider.yaml');
    const text = readFileSync(adapter, 'utf8');
    writeFileSync(adapter, text.replace(/^values: \{/m, 'values: {zone: TODO, '));
    const line = text.split('\n').findIndex((row) => row.startsWith('values: {')) + 1;
    const note = `adapter draft: providers/gke/provider.yaml:${line} (values.zone) still hold TODO placeholders`;
    const diff = await runDrift(['diff', '-p', 'gke', '-s', 'converge', '--format', 'json'], dir);
    expect((JSON.parse(diff.stdout) as Report).notes, diff.stderr).toEqual([expect.stringContaining(note)]);
    const expected = await runDrift(['expect', '-p', 'gke', '-s', 'converge'], dir);
    expect(expected.stdout).toContain(note);
    // Filled in, nothing is said.
    writeFileSync(adapter, text);
    const clean = await runDrift(['diff', '-p', 'gke', '-s', 'converge', '--format', 'json'], dir);
    expect((JSON.parse(clean.stdout) as Report).notes ?? []).toEqual([]);
  }, SLOW);

  it('an independently styled newcomer (the modular idiom)', async () => {
    const { dir, remove } = copyProject({ prefix: 'drift-growing-modular-' });
    copies.push(remove);
    cpSync(path.join(REPO, 'test/fixtures/style-idioms/modular'), path.join(dir, 'providers', 'modular'), { recursive: true, filter: (source) => !source.endsWith('expected-style.txt') });
    const adapter = path.join(dir, 'providers', 'modular', 'provider.yaml');
    writeFileSync(adapter, readFileSync(adapter, 'utf8').replace('../../../../.venv/bin/python', '../../.venv/bin/python').replace('../../../../schemas/', '../../schemas/'));
    const loop = await newcomerLoop(dir, 'modular');
    expect(loop.full.findings.map((finding) => finding.id), loop.commands.join('\n')).toEqual([]);
    expect(loop.fullExit).toBe(0);
    expect(loop.commands.length, loop.commands.join('\n')).toBeLessThanOrEqual(8);
  }, SLOW);
});
