/**
 * The verdict cache (src/cache/verdict.ts, src/pipeline/diffVerdict.ts) never changes a report: a
 * cached `drift diff` prints byte for byte what `drift --no-cache diff` prints, on the bundled set and
 * on every mutation seed (full mode, then new-provider mode with the seeded provider's goldens gone),
 * whether its report is judged, kept or read back; and a verdict is judged again when what it was
 * judged from changes (a golden edited or removed, an accepted entry removed, a provider's source). One private cache folder, so
 * which run keeps and which reads a verdict is known.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runDrift, type DriftRun } from '../helpers/drift.js';
import { applyEdit } from '../helpers/fourth.js';
import { SEEDS, seeded } from '../helpers/mutationSeeds.js';
import { copyProject, REPO, tempDir } from '../helpers/project.js';

const SLOW = 600_000;
const temp = tempDir('drift-verdict-cache-');
const removals: Array<() => void> = [temp.remove];
afterAll(() => removals.forEach((remove) => remove()));
const cache = path.join(temp.dir, 'cache');
const verdicts = path.join(cache, 'verdicts');
const kept = (): string[] => {
  try {
    return readdirSync(verdicts).filter((name) => name.endsWith('.json')).sort();
  } catch {
    return [];
  }
};

const cached = (args: string[], dir: string) => runDrift(args, dir, { DRIFT_CACHE_DIR: cache });
const live = (args: string[], dir: string) => runDrift(['--no-cache', ...args], dir, { DRIFT_CACHE_DIR: cache });
const shown = (run: DriftRun) => ({ exitCode: run.exitCode, stdout: run.stdout, stderr: run.stderr });

/**
 * `args` with every cache off, then cached until the verdict is read back: the first cached run
 * judges what it rendered (nothing kept), the next judges its cells from the cache (kept), the last
 * reads the kept verdict. Each prints what the uncached run printed.
 */
async function sameEveryWay(args: string[], dir: string): Promise<void> {
  const reference = shown(await live(args, dir));
  for (let run = 0; run < 3; run += 1) expect(shown(await cached(args, dir)), `${args.join(' ')}, cached run ${run + 1}`).toEqual(reference);
}

describe('the verdict cache', () => {
  it('the bundled set: the cached report is the --no-cache one in each format, and a kept verdict is what a re-run prints', async () => {
    for (const format of ['text', 'json', 'markdown']) await sameEveryWay(['diff', '--format', format], REPO);
    const before = kept();
    expect(before.length).toBeGreaterThan(0);
    // The re-run reads the kept verdict: a doctored entry shows in what it prints.
    const file = path.join(verdicts, before.find((name) => name.startsWith('diff-'))!);
    const text = readFileSync(file, 'utf8');
    const doctored = text.replace(/"summary":\{/, '"summary":{"doctored":true,');
    writeFileSync(file, doctored.replace('"clean":true', '"clean":false'));
    const reads = await Promise.all([cached(['diff', '--format', 'text'], REPO), cached(['diff', '--format', 'json'], REPO), cached(['diff', '--format', 'markdown'], REPO)]);
    expect(reads.some((run) => run.stdout.includes('"doctored": true') || run.exitCode === 1)).toBe(true);
    writeFileSync(file, text);
    // An entry that cannot be read is a miss, never a crash.
    for (const name of kept()) writeFileSync(path.join(verdicts, name), '{"format":');
    expect(shown(await cached(['diff'], REPO))).toEqual(shown(await live(['diff'], REPO)));
  }, SLOW);

  it('judges again when a golden, accepted.yaml or a provider source changes', async () => {
    const copy = copyProject({ prefix: 'drift-verdict-edits-' });
    const gpuLabel = SEEDS.find((seed) => seed.drift === 'GPU label dropped')!;
    removals.push(copy.remove);
    const args = ['diff', '-s', 'converge', '-s', 'credentials-lost'];
    await sameEveryWay(args, copy.dir);
    const edits: Array<[string, () => void]> = [
      ['a golden edited', () => appendFileSync(path.join(copy.dir, 'goldens', 'gke', 'converge.yaml'), '# edited\nextra: true\n')],
      ['an accepted entry removed', () => {
        const file = path.join(copy.dir, 'goldens', 'accepted.yaml');
        const text = readFileSync(file, 'utf8');
        const entry = '  - facet: writer\n    subject: kubeconfig\n';
        expect(text).toContain(entry);
        writeFileSync(file, text.replace(/  - facet: writer\n    subject: kubeconfig\n(    .*\n)*/, ''));
      }],
      ['a provider source edited', () => {
        const file = path.join(copy.dir, 'providers', gpuLabel.provider, 'function', 'composer.py');
        writeFileSync(file, gpuLabel.composer.reduce((text, edit) => applyEdit(text, edit, file), readFileSync(file, 'utf8')));
      }],
      ['a golden removed', () => rmSync(path.join(copy.dir, 'goldens', 'aks', 'converge.yaml'))],
    ];
    for (const [what, edit] of edits) {
      const before = shown(await cached(args, copy.dir));
      edit();
      const after = shown(await live(args, copy.dir));
      expect(after, `${what}: the edit changes the report`).not.toEqual(before);
      expect(shown(await cached(args, copy.dir)), what).toEqual(after);
      expect(shown(await cached(args, copy.dir)), `${what}, again`).toEqual(after);
    }
  }, SLOW);

  for (const seed of SEEDS) {
    it(`every mutation seed: ${seed.provider}: ${seed.drift}`, async () => {
      const copy = seeded(seed);
      removals.push(copy.remove);
      const scenarios = seed.scenarios.flatMap((name) => ['-s', name]);
      for (const provider of [undefined, seed.provider]) {
        // New-provider mode: its goldens gone, -p.
        if (provider) rmSync(path.join(copy.dir, 'goldens', provider), { recursive: true, force: true });
        const before = new Set(kept());
        await sameEveryWay(['diff', ...scenarios, ...(provider ? ['-p', provider] : [])], copy.dir);
        expect(kept().filter((name) => !before.has(name)).length, `a verdict kept (${provider ? 'new-provider' : 'full'} mode)`).toBe(1);
      }
    }, SLOW);
  }
});
