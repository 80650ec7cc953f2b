/**
 * The yaml library's scalar decisions kept between processes (config/scalarCache.ts): a fresh
 * process writes canonical YAML from the kept decisions without loading the library, and takes
 * the library's word only for scalars no earlier process met.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { viaDocument } from '../../src/util/yaml.js';
import { tempDir } from '../helpers/project.js';

const folder = tempDir('drift-scalars-');
afterAll(() => folder.remove());

/** A fresh process's modules, its documents kept under the cache folder `cache` (as loadProject passes the run's policy): no decision in memory, the folder as the last process left it. */
async function freshProcess(cache: string | undefined) {
  vi.resetModules();
  const [{ keepScalarCache, useScalarCache }, { toCanonicalText }] = await Promise.all([import('../../src/config/scalarCache.js'), import('../../src/util/canonicalYaml.js')]);
  const policy = cache === undefined ? undefined : { enabled: true, folder: cache };
  useScalarCache(policy);
  return { keepScalarCache: () => keepScalarCache(policy), toCanonicalText };
}

/** A cache entry's data, as the document cache writes it. */
const entryData = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { data: Record<string, string> }).data;
const entry = (data: Record<string, string>) => JSON.stringify({ data });

const documents = path.join(folder.dir, 'documents');
const kept = () => (existsSync(documents) ? readdirSync(documents).filter((name) => name.startsWith('scalars-')) : []);

describe('the scalar-decision cache', () => {
  it('keeps what a process asked, and a later process writes from it, asking the library only about new scalars', async () => {
    const first = await freshProcess(folder.dir);
    const value = { name: 'true', size: 'a: b', list: ['null', '012'] };
    const text = first.toCanonicalText(value);
    expect(text).toBe(viaDocument(value));
    expect(text).toBe('name: "true"\nsize: "a: b"\nlist: ["null", "012"]\n');
    first.keepScalarCache();
    expect(kept()).toHaveLength(1);
    const file = path.join(folder.dir, 'documents', kept()[0]!);
    const decisions = entryData(file);
    expect(Object.values(decisions)).toEqual(expect.arrayContaining(['"true"', '"a: b"', '"null"', '"012"']));

    // The kept decision for "true" now says otherwise: a later process must take it from the file.
    const id = Object.keys(decisions).find((key) => decisions[key] === '"true"')!;
    writeFileSync(file, entry({ ...decisions, [id]: "'true'", 'block\u0000two lines': 'a\nb' }));
    const second = await freshProcess(folder.dir);
    expect(second.toCanonicalText(value)).toBe('name: \'true\'\nsize: "a: b"\nlist: ["null", "012"]\n');
    // A multi-line entry is not one this cache writes: ignored, the library asked instead.
    expect(second.toCanonicalText({ two: 'two lines' })).toBe('two: two lines\n');
    second.keepScalarCache();
    const rewritten = entryData(file);
    expect(Object.values(rewritten)).not.toContain('a\nb');
    expect(rewritten[id]).toBe("'true'");
  });

  it('without a cache folder, keeps nothing', async () => {
    const before = kept();
    const off = await freshProcess(undefined);
    off.toCanonicalText({ fresh: 'null' });
    off.keepScalarCache();
    expect(kept()).toEqual(before);
  });

  it('keeps the newest three files of other builds beside its own, and reads none of them', async () => {
    const other = path.join(folder.dir, 'builds', 'documents');
    mkdirSync(other, { recursive: true });
    for (let build = 1; build <= 5; build++) {
      const at = path.join(other, `scalars-build${build}.json`);
      writeFileSync(at, entry({ 'block\u0000prune me': `'from build ${build}'` }));
      utimesSync(at, 1_000 * build, 1_000 * build);
    }
    const run = await freshProcess(path.join(folder.dir, 'builds'));
    expect(run.toCanonicalText({ key: 'prune me' })).toBe('key: prune me\n');
    run.keepScalarCache();
    const left = readdirSync(other).sort();
    expect(left.filter((name) => name.startsWith('scalars-build'))).toEqual(['scalars-build3.json', 'scalars-build4.json', 'scalars-build5.json']);
    expect(left).toHaveLength(4);
  });
});
