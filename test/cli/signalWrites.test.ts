/**
 * A signal that arrives while a command writes is never lost (issue 39, item 5): the built drift
 * (bin/drift.js) lets the writes finish whole, the generated contract's included, then exits 128 + the
 * signal's number, never 0. DRIFT_TEST_PAUSE_IN_WRITE_MS holds the command's first durable write (its
 * text on disk, before its rename) as a slow disk would, blocking the thread until the test, having
 * sent the signal, creates DRIFT_TEST_RESUME_FILE: the signal lands inside the write phase every time.
 * One case per command that writes.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDrift, startDrift } from '../helpers/drift.js';
import { waitFor } from '../helpers/processes.js';
import { copyProject, hashGoldens, type ProjectCopy } from '../helpers/project.js';

const SLOW = 180_000;
const LOCK = ['labels', '--subject', 'node-pool'];
const LEGACY_ID = '  - id: div:converge:subnet:key-pattern:eks\n    reason: EKS composes two subnets.\n';

function leftovers(dir: string): string[] {
  return ['goldens', 'providers'].flatMap((folder) => readdirSync(path.join(dir, folder), { recursive: true, encoding: 'utf8' }).filter((file) => file.includes('.drift-tmp-')));
}

interface Case {
  command: string;
  signal: 'SIGINT' | 'SIGTERM';
  /** Prepares the copy; returns what the command must leave written, checked after the signal. */
  setUp: (dir: string) => Promise<(dir: string) => void>;
  args: string[];
}

const accepted = (dir: string) => path.join(dir, 'goldens/accepted.yaml');
const appendLegacy = (dir: string) => writeFileSync(accepted(dir), `${readFileSync(accepted(dir), 'utf8').replace(/\n?$/, '\n')}${LEGACY_ID}`);

const CASES: Case[] = [
  {
    command: 'update',
    signal: 'SIGINT',
    args: ['update', '-p', 'gke'],
    setUp: async (dir) => {
      const committed = hashGoldens(dir);
      for (const file of ['gke/converge.yaml', 'gke/never-ready.yaml']) rmSync(path.join(dir, 'goldens', file));
      return (after) => expect(hashGoldens(after)).toEqual(committed);
    },
  },
  {
    command: 'accept',
    signal: 'SIGTERM',
    args: ['accept', 'div:z:key-pattern:gke', '--reason', 'by design'],
    setUp: async (dir) => {
      const before = readFileSync(accepted(dir), 'utf8').replace(/\n?$/, '\n');
      return (after) => expect(readFileSync(accepted(after), 'utf8')).toBe(`${before}  - id: div:z:key-pattern:gke\n    reason: by design\n`);
    },
  },
  {
    command: 'lock',
    signal: 'SIGINT',
    args: ['lock', ...LOCK, '--reason', 'Schedulers find GPU pools by these labels.'],
    setUp: async () => (after) => expect(readFileSync(path.join(after, 'goldens/conventions.yaml'), 'utf8')).toContain('Schedulers find GPU pools by these labels.'),
  },
  {
    command: 'unlock',
    signal: 'SIGTERM',
    args: ['unlock', ...LOCK],
    setUp: async (dir) => {
      const locked = await runDrift(['lock', ...LOCK, '--reason', 'Schedulers find GPU pools by these labels.'], dir);
      expect(locked.exitCode, locked.all).toBe(0);
      return (after) => expect(readFileSync(path.join(after, 'goldens/conventions.yaml'), 'utf8')).not.toContain('Schedulers find GPU pools');
    },
  },
  {
    command: 'migrate',
    signal: 'SIGINT',
    args: ['migrate'],
    setUp: async (dir) => {
      appendLegacy(dir);
      return (after) => expect(readFileSync(accepted(after), 'utf8')).toContain('  - id: div:subnet:key-pattern:eks\n    scenario: converge\n');
    },
  },
  {
    command: 'contract',
    signal: 'SIGTERM',
    args: ['contract'],
    setUp: async (dir) => {
      const files = ['providers/CONTRACT.md', 'providers/contract.json'];
      const before = files.map((file) => readFileSync(path.join(dir, file), 'utf8'));
      for (const file of files) writeFileSync(path.join(dir, file), 'stale\n');
      return (after) => expect(files.map((file) => readFileSync(path.join(after, file), 'utf8'))).toEqual(before);
    },
  },
  {
    command: 'new-provider',
    signal: 'SIGINT',
    args: ['new-provider', 'acme', '--xrd', 'providers/gke/apis/definition.yaml'],
    setUp: async () => (after) => expect(readFileSync(path.join(after, 'providers/acme/provider.yaml'), 'utf8')).toMatch(/^name: acme$/m),
  },
];

describe('a signal during the writes of a command', () => {
  let copy: ProjectCopy | undefined;
  afterEach(() => copy?.remove());

  for (const { command, signal, args, setUp } of CASES) {
    const code = signal === 'SIGINT' ? 130 : 143;
    it(
      `${command}, ${signal}: what it writes is written whole, the contract with it, then drift exits ${code}`,
      async () => {
        copy = copyProject({ prefix: `drift-signal-${command}-` });
        const check = await setUp(copy.dir);
        const resume = path.join(copy.dir, 'resume');
        const child = startDrift(args, copy.dir, { replaying: true, env: { DRIFT_TEST_PAUSE_IN_WRITE_MS: '60000', DRIFT_TEST_RESUME_FILE: resume } });
        let stderr = '';
        child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        await waitFor(() => stderr.includes('test pause in a write'), 120_000, `drift ${command} to reach its first write`);
        child.kill(signal);
        // Signalled while the write blocks; only then may it go on.
        writeFileSync(resume, '');
        const run = await child;
        expect(run.exitCode, `${run.stdout}\n${stderr}`).toBe(code);
        check(copy.dir);
        expect(leftovers(copy.dir)).toEqual([]);
        // The contract changed in the same step as what it lists (a new provider is in it only once it has goldens).
        if (command !== 'new-provider') {
          const current = await runDrift(['contract', '--check'], copy.dir);
          expect(current.exitCode, current.all).toBe(0);
        } else expect(existsSync(path.join(copy.dir, 'providers/acme/provider.yaml'))).toBe(true);
      },
      SLOW,
    );
  }
});
