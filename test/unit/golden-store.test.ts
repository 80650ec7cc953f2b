/** The file-system golden environment: whole-file writes, listing only goldens, sweeping what a killed write left. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContractStore } from '../../src/goldens/contractStore.js';
import { GoldenStore } from '../../src/goldens/store.js';
import { resolvePolicy, type WritePolicy } from '../../src/util/ci.js';
import { tempDir } from '../helpers/project.js';

let remove: () => void = () => {};
afterEach(() => {
  remove();
  vi.unstubAllEnvs();
});

/** The write policy the CLI edge resolves under CI (util/ci.ts). */
const CI: WritePolicy = resolvePolicy({ CI: 'true' }, false).write;

/** A store in a temp folder, under the write policy the CLI edge resolved (Project.policy). */
function store(policy?: WritePolicy): GoldenStore {
  const temp = tempDir('drift-store-');
  remove = temp.remove;
  return new GoldenStore(path.join(temp.dir, 'goldens'), policy);
}

describe('GoldenStore', () => {
  it('writes a file whole, creating its folder, and leaves no temporary file behind', () => {
    const goldens = store();
    goldens.write('gke/converge.yaml', 'skeleton: 1\n');
    goldens.write('gke/converge.yaml', 'skeleton: 1\nprovider: gke\n');
    expect(goldens.read('gke/converge.yaml')).toBe('skeleton: 1\nprovider: gke\n');
    expect(readdirSync(path.join(goldens.dir, 'gke'))).toEqual(['converge.yaml']);
    expect(goldens.read('gke/two-pools.yaml')).toBeUndefined();
  });

  it('lists goldens only: not accepted.yaml, not other files, not temporary files', () => {
    const goldens = store();
    for (const file of ['gke/converge.yaml', 'eks/converge.yaml', 'accepted.yaml', 'gke/notes.txt', 'gke/two-pools.yaml.tmp-1']) goldens.write(file, 'x\n');
    expect(goldens.list()).toEqual(['eks/converge.yaml', 'gke/converge.yaml']);
  });

  it('sweep removes the temporary files of a writer that is gone, and keeps those of one still running', () => {
    const goldens = store();
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    mkdirSync(path.join(goldens.dir, 'gke'), { recursive: true });
    const files = { gone: `gke/converge.yaml.tmp-${dead}`, accepted: `accepted.yaml.tmp-${dead}`, running: `gke/two-pools.yaml.tmp-${process.ppid}` };
    for (const file of Object.values(files)) writeFileSync(path.join(goldens.dir, file), 'half');
    expect(goldens.sweep()).toEqual([files.accepted, files.gone]);
    expect(existsSync(path.join(goldens.dir, files.gone))).toBe(false);
    expect(existsSync(path.join(goldens.dir, files.accepted))).toBe(false);
    expect(existsSync(path.join(goldens.dir, files.running))).toBe(true);
    expect(goldens.sweep()).toEqual([]);
  });

  it('under CI it neither writes, removes nor sweeps', () => {
    const local = store();
    local.write('gke/converge.yaml', 'skeleton: 1\n');
    const goldens = new GoldenStore(local.dir, CI);
    const leftover = path.join(goldens.dir, `gke/converge.yaml.tmp-${spawnSync(process.execPath, ['-e', '']).pid!}`);
    writeFileSync(leftover, 'half');
    expect(() => goldens.write('gke/converge.yaml', 'other\n')).toThrow('CI is set');
    expect(() => goldens.remove('gke/converge.yaml')).toThrow('CI is set');
    expect(goldens.sweep()).toEqual([]);
    expect(existsSync(leftover)).toBe(true);
    expect(goldens.read('gke/converge.yaml')).toBe('skeleton: 1\n');
  });

  it('asks its policy per kind of file: goldens, accepted.yaml and the contract each', () => {
    const local = store();
    const only = (kind: 'goldens' | 'accepted' | 'contract'): WritePolicy => ({ may: { goldens: false, accepted: false, contract: false, [kind]: true }, refusal: `not ${kind}` });
    const goldens = new GoldenStore(local.dir, only('accepted'));
    goldens.writeAccepted('entries: []\n');
    expect(goldens.read('accepted.yaml')).toBe('entries: []\n');
    expect(() => goldens.write('gke/converge.yaml', 'x\n')).toThrow('not accepted');
    expect(() => new GoldenStore(local.dir, only('goldens')).writeAccepted('x\n')).toThrow('not goldens');
    const contract = new ContractStore(path.join(local.dir, 'providers'), only('goldens'));
    expect(() => contract.write([{ file: 'CONTRACT.md', text: '# contract\n' }])).toThrow('not goldens');
    expect(new ContractStore(path.join(local.dir, 'providers'), only('contract')).write([{ file: 'CONTRACT.md', text: '# contract\n' }])).toEqual(['CONTRACT.md']);
  });

  it('under CI the contract is refused with the message users see, and nothing is written', () => {
    const local = store();
    const contract = new ContractStore(path.join(local.dir, 'providers'), CI);
    expect(() => contract.write([{ file: 'CONTRACT.md', text: '# contract\n' }])).toThrow(/^CI is set: drift never writes goldens in CI\. Run `drift update` locally/);
    expect(contract.stale([{ file: 'CONTRACT.md', text: '# contract\n' }])).toEqual(['CONTRACT.md']);
  });
});
