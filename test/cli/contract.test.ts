/**
 * The generated contract through the built CLI: it is current in the repository, written the same
 * bytes every time, and a change to one rule's meta reaches `drift rules`, docs/rules.md and CONTRACT.md
 * only when they are regenerated, while `drift contract --check` and `drift diff` say they are stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyPackage, runDrift } from '../helpers/drift.js';
import { copyProject, REPO, replaceExactly, type ProjectCopy } from '../helpers/project.js';

const SLOW = 300_000;
const CONTRACT_FILES = ['providers/CONTRACT.md', 'providers/contract.json', 'providers/skills/drift-add-provider/SKILL.md'];
const read = (dir: string) => Object.fromEntries(CONTRACT_FILES.map((file) => [file, readFileSync(path.join(dir, file), 'utf8')]));

describe('drift contract', () => {
  let project: ProjectCopy;
  beforeAll(() => {
    project = copyProject({ prefix: 'drift-contract-' });
  });
  afterAll(() => project.remove());

  it('the committed contract is current', async () => {
    const run = await runDrift(['contract', '--check'], REPO);
    expect(run.all).toContain('is current');
    expect(run.exitCode).toBe(0);
  });

  it('writes the same bytes as the committed files, and --check then passes', async () => {
    for (const file of CONTRACT_FILES) writeFileSync(path.join(project.dir, file), 'edited by hand\n');
    const stale = await runDrift(['contract', '--check'], project.dir);
    expect(stale.exitCode).toBe(1);
    for (const file of CONTRACT_FILES) expect(stale.stdout).toContain(`stale   ${file}`);
    expect(readFileSync(path.join(project.dir, CONTRACT_FILES[0]!), 'utf8')).toBe('edited by hand\n'); // --check writes nothing

    const underCI = await runDrift(['contract'], project.dir, { CI: 'true' });
    expect(underCI.exitCode).toBe(2);
    expect(readFileSync(path.join(project.dir, CONTRACT_FILES[0]!), 'utf8')).toBe('edited by hand\n');

    const write = await runDrift(['contract'], project.dir);
    expect(write.exitCode).toBe(0);
    expect(read(project.dir)).toEqual(read(REPO));
    expect((await runDrift(['contract', '--check'], project.dir)).exitCode).toBe(0);
    expect((await runDrift(['contract'], project.dir)).stdout).toContain('is current');
  });

  it('drift accept rewrites the contract with the new entry and its reason', async () => {
    const copy = copyProject({ prefix: 'drift-contract-accept-' });
    try {
      const run = await runDrift(['accept', 'div:cluster:ready:gke', '--reason', 'a reason only this test gives'], copy.dir);
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toContain('written providers/CONTRACT.md');
      expect(readFileSync(path.join(copy.dir, 'providers/CONTRACT.md'), 'utf8')).toContain('a reason only this test gives');
      expect((await runDrift(['contract', '--check'], copy.dir)).exitCode).toBe(0);
    } finally {
      copy.remove();
    }
  });
});

describe("deleting one rule's rationale", () => {
  let pkg: ReturnType<typeof copyPackage>;
  let project: ProjectCopy;
  const RATIONALE = 'Keys are the names people and tools use for resources across every cloud; one convention keeps them predictable.';
  beforeAll(() => {
    pkg = copyPackage();
    project = copyProject({ prefix: 'drift-contract-rationale-' });
    const rule = path.join(pkg.dir, 'dist/compare/rules/key-naming.js');
    writeFileSync(rule, replaceExactly(readFileSync(rule, 'utf8'), `rationale: '${RATIONALE}'`, "rationale: ''"));
    pkg.rebundle();
  });
  afterAll(() => {
    pkg.remove();
    project.remove();
  });

  it('changes drift rules at once', async () => {
    const before = await runDrift(['rules'], project.dir);
    const after = await runDrift(['rules'], project.dir, {}, pkg.bin);
    expect(before.stdout).toContain(RATIONALE);
    expect(after.stdout).not.toContain(RATIONALE);
    expect(after.stdout.replace('why: \n', `why: ${RATIONALE}\n`)).toBe(before.stdout);
  });

  it('makes docs/rules.md and the contract stale until they are regenerated, and only then changes them', { timeout: SLOW }, async () => {
    const rulesPage = readFileSync(path.join(pkg.dir, 'docs/rules.md'), 'utf8');
    const contract = read(project.dir);

    const docsCheck = await execa('node', [path.join(pkg.dir, 'scripts/docs-generate.mjs'), '--check'], { reject: false });
    expect(docsCheck.exitCode).toBe(1);
    const check = await runDrift(['contract', '--check'], project.dir, {}, pkg.bin);
    expect(check.exitCode).toBe(1);
    expect(check.stdout).toContain('stale   providers/CONTRACT.md');
    expect(check.stdout).toContain('stale   providers/contract.json');
    expect(check.stdout).not.toContain('SKILL.md'); // the skill points at the contract; it does not repeat the rules

    // drift diff judges the providers, not the generated documents: `drift contract --check` (run by CI
    // and the pull-request workflow) is what fails on a stale contract.
    const diff = await runDrift(['diff', '-p', 'gke', '-s', 'converge', '-f', 'json'], project.dir, {}, pkg.bin);
    expect(diff.exitCode, diff.all).toBe(0);

    // Nothing changed on disk by checking.
    expect(readFileSync(path.join(pkg.dir, 'docs/rules.md'), 'utf8')).toBe(rulesPage);
    expect(read(project.dir)).toEqual(contract);

    await execa('node', [path.join(pkg.dir, 'scripts/docs-generate.mjs')]);
    const newPage = readFileSync(path.join(pkg.dir, 'docs/rules.md'), 'utf8');
    expect(newPage).not.toContain(RATIONALE);
    expect(newPage.replace('*Why:* \n', `*Why:* ${RATIONALE}\n`)).toBe(rulesPage);

    expect((await runDrift(['contract'], project.dir, {}, pkg.bin)).exitCode).toBe(0);
    const regenerated = read(project.dir);
    expect(regenerated['providers/CONTRACT.md']).not.toContain(RATIONALE);
    expect(contract['providers/CONTRACT.md']).toContain(RATIONALE);
    expect(regenerated['providers/skills/drift-add-provider/SKILL.md']).toBe(contract['providers/skills/drift-add-provider/SKILL.md']);
    expect((await runDrift(['contract', '--check'], project.dir, {}, pkg.bin)).exitCode).toBe(0);
  });
});
