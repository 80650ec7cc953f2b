/**
 * The cache module (src/cache/): one writer through the atomic writer, a bad entry is a miss, one
 * pruner whose documented bound holds over many rebuilds, and leftovers of killed writes removed.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readEntry, readJsonEntry, writeEntry } from '../../src/cache/entry.js';
import { cacheFolder } from '../../src/cache/folder.js';
import { cachePolicy } from '../../src/cache/policy.js';
import { CACHE_BOUND, pruneAfterRun, pruneCache } from '../../src/cache/prune.js';
import { cachedValidator } from '../../src/config/validatorCache.js';
import { REPO, tempDir } from '../helpers/project.js';

const temp = tempDir('drift-cache-module-');
afterAll(() => temp.remove());

const files = (folder: string): string[] => readdirSync(folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)));
const bytes = (folder: string): number => files(folder).reduce((sum, file) => sum + statSync(path.join(folder, file)).size, 0);

describe('the cache folder', () => {
  it('resolves DRIFT_CACHE_DIR against the project root, never against an empty XDG_CACHE_HOME', () => {
    expect(cacheFolder('/p', { DRIFT_CACHE_DIR: 'c' })).toBe(path.resolve('/p', 'c'));
    expect(path.isAbsolute(cacheFolder('/nonexistent', { XDG_CACHE_HOME: '', HOME: '/h' }))).toBe(true);
    expect(path.isAbsolute(cacheFolder('/nonexistent', { XDG_CACHE_HOME: 'relative', HOME: '' }))).toBe(true);
    expect(cachePolicy('/p', {}, { noCache: true }).enabled).toBe(false);
  });
});

describe('cache entries', () => {
  it('are written whole through the atomic writer and a bad one is a miss', () => {
    const file = path.join(temp.dir, 'e', 'a.json');
    expect(writeEntry(file, JSON.stringify({ data: 1 }))).toBe(true);
    expect(readJsonEntry<{ data: number }>(file)?.data).toBe(1);
    for (const bad of ['', '{"data":', '[1]', 'null']) {
      writeFileSync(file, bad);
      expect(readJsonEntry(file)).toBeUndefined();
    }
    writeFileSync(file, '');
    expect(readEntry(file)).toBeUndefined();
    expect(files(path.join(temp.dir, 'e'))).toEqual(['a.json']);
  });

  it('an emptied, truncated or tampered validator .cjs is compiled again, never a crash', () => {
    const folder = path.join(temp.dir, 'v');
    const cache = { enabled: true, folder };
    const schema = { type: 'object', properties: { n: { type: 'integer' } } };
    cachedValidator(schema, { strict: false }, cache);
    const [name] = readdirSync(path.join(folder, 'validators'));
    const file = path.join(folder, 'validators', name!);
    const code = readFileSync(file, 'utf8');
    for (const bad of ['', code.slice(0, code.length / 2), 'module.exports = 42', 'throw new Error("x")']) {
      writeFileSync(file, bad);
      const validate = cachedValidator(schema, { strict: false }, cache);
      expect(validate({ n: 1 })).toBe(true);
      expect(validate({ n: 'x' })).toBe(false);
    }
  });
});

describe('the pruner', () => {
  it('as a run ends, walks the folder only when an entry was written or removed since, or a day has passed', () => {
    const folder = path.join(temp.dir, 'after-run');
    const version = (n: number) => path.join(folder, `gke-${n.toString(16).padStart(32, '0')}.answers`);
    for (let n = 0; n < CACHE_BOUND.perProvider + 3; n++) writeEntry(version(n), 'x');
    expect(pruneAfterRun(folder)).toHaveLength(3);
    // An old entry whose time changed in place (no write, no removal): a quiet folder is not walked...
    const old = new Date(Date.now() - 40 * 86_400_000);
    utimesSync(version(CACHE_BOUND.perProvider + 2), old, old);
    expect(pruneAfterRun(folder)).toEqual([]);
    // ...until a day has passed, or something is written.
    expect(pruneAfterRun(folder, CACHE_BOUND, Date.now() + 2 * 86_400_000).length).toBeGreaterThan(0);
    // 31 versions are left (the old one went); three more written: the folder is walked and two go.
    // A folder's time comes from the kernel's coarse clock, which lags the stamp's by up to a tick: a write
    // within that tick of a prune is seen by the run after next (measured: 1 in 200 at once, 0 in 300 10 ms later).
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    for (let n = 100; n < 103; n++) writeEntry(version(n), 'x');
    expect(pruneAfterRun(folder)).toHaveLength(2);
  });

  it('removes what killed writes left, not a running one', () => {
    const folder = path.join(temp.dir, 'k');
    mkdirSync(path.join(folder, 'documents'), { recursive: true });
    const dead = execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(path.join(folder, 'documents', `a.json.drift-tmp-${dead}`), 'half');
    writeFileSync(path.join(folder, 'documents', `b.json.drift-tmp-${process.ppid}`), 'in flight');
    const old = path.join(folder, 'documents', 'c.json.123.tmp');
    writeFileSync(old, 'legacy');
    utimesSync(old, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    pruneCache(folder);
    expect(files(folder)).toEqual([path.join('documents', `b.json.drift-tmp-${process.ppid}`)]);
  });

  it('keeps the documented bound: versions per provider, age and size, over 20 rebuilds', () => {
    expect(CACHE_BOUND).toEqual({ perProvider: 32, maxAgeDays: 30, maxBytes: 256 * 1024 * 1024 });
    const docs = readFileSync(path.join(REPO, 'docs', 'caches.md'), 'utf8');
    expect(docs).toContain('32 versions per provider');
    expect(docs).toContain('30 days');
    expect(docs).toContain('256 MiB');
    const folder = path.join(temp.dir, 'p');
    const bound = { perProvider: 4, maxAgeDays: 30, maxBytes: 40_000 };
    const now = Date.now();
    for (let build = 0; build < 20; build++) {
      // A rebuild: every kind gets new entries under new keys, each written a second after the last.
      const key = build.toString(16).padStart(32, '0');
      const written: string[] = [];
      for (const provider of ['gke', 'eks']) {
        written.push(path.join(folder, `${provider}-${key}.answers`), path.join(folder, 'cells', `${provider}-${key}.json`), path.join(folder, 'sources', `${provider}-${key}.json`));
      }
      written.push(path.join(folder, 'documents', `${key}.json`), path.join(folder, 'validators', `${key}.cjs`));
      for (const file of written) {
        writeEntry(file, 'x'.repeat(500));
        const at = new Date(now - (20 - build) * 1000);
        utimesSync(file, at, at);
      }
      pruneCache(folder, bound, now);
      for (const kind of ['', 'cells', 'sources']) {
        for (const provider of ['gke', 'eks']) expect(readdirSync(path.join(folder, kind)).filter((name) => name.startsWith(`${provider}-`)).length).toBeLessThanOrEqual(4);
      }
      expect(bytes(folder)).toBeLessThanOrEqual(bound.maxBytes);
    }
    // The newest build's entries survive every bound.
    expect(readdirSync(folder)).toContain(`gke-${(19).toString(16).padStart(32, '0')}.answers`);
    pruneCache(folder, bound, now + 31 * 86_400_000);
    expect(files(folder)).toEqual([]);
  });
});
