import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeCacheSpot, loadBundle } from '../../src/cli/codeCache.js';
import { tempDir } from '../helpers/project.js';

const temp = tempDir('drift-code-cache-');
// V8 keeps what this process compiled in memory and would answer a second load from there, whatever
// the file held: without it, every load below is a cold process's.
beforeAll(() => setFlagsFromString('--no-compilation-cache'));
afterAll(() => {
  setFlagsFromString('--compilation-cache');
  temp.remove();
});

/** A CommonJS "bundle" of one exported function whose answer tells which build ran. */
function build(file: string, answer: string, mtime: number): void {
  writeFileSync(file, `module.exports.answer = function answer() { return ${JSON.stringify(answer)} + require('node:path').sep; };\n`);
  utimesSync(file, mtime, mtime);
}

const cacheFiles = (folder: string) => readdirSync(folder).filter((name) => name.endsWith('.v8')).sort();

describe('the code cache of the bundle', () => {
  it('runs the bundle, keeps its compiled code, and takes it on the next load', () => {
    const folder = path.join(temp.dir, 'a');
    const bundle = path.join(temp.dir, 'a.cjs');
    build(bundle, 'one', 1_000);
    const spot = codeCacheSpot(folder, ['diff'], []);
    const first = loadBundle(bundle, spot);
    expect(first.fromCache).toBe(false);
    expect((first.exports.answer as () => string)()).toBe(`one${path.sep}`);
    first.keep();
    expect(cacheFiles(folder)).toHaveLength(1);
    const second = loadBundle(bundle, spot);
    expect(second.fromCache).toBe(true);
    expect((second.exports.answer as () => string)()).toBe(`one${path.sep}`);
  });

  it('never runs an older build from the cache, even of the same length, and replaces its file', () => {
    const folder = path.join(temp.dir, 'b');
    const bundle = path.join(temp.dir, 'b.cjs');
    build(bundle, 'old', 1_000);
    const spot = codeCacheSpot(folder, ['list'], []);
    loadBundle(bundle, spot).keep();
    const kept = cacheFiles(folder);
    build(bundle, 'new', 2_000);
    const rebuilt = loadBundle(bundle, spot);
    expect(rebuilt.fromCache).toBe(false);
    expect((rebuilt.exports.answer as () => string)()).toBe(`new${path.sep}`);
    rebuilt.keep();
    expect(cacheFiles(folder)).toHaveLength(1);
    expect(cacheFiles(folder)).not.toEqual(kept);
  });

  it('keeps one file per command and variant, none under --no-cache, and survives a damaged file', () => {
    const folder = path.join(temp.dir, 'c');
    const bundle = path.join(temp.dir, 'c.cjs');
    build(bundle, 'c', 1_000);
    for (const args of [['diff'], ['--no-cache', 'diff'], ['list'], ['diff'], ['list']]) loadBundle(bundle, codeCacheSpot(folder, args, [])).keep();
    expect(cacheFiles(folder)).toHaveLength(2);
    for (const name of cacheFiles(folder)) writeFileSync(path.join(folder, name), 'not a code cache');
    const damaged = loadBundle(bundle, codeCacheSpot(folder, ['diff'], []));
    expect(damaged.fromCache).toBe(false);
    expect((damaged.exports.answer as () => string)()).toBe(`c${path.sep}`);
    damaged.keep();
    expect(loadBundle(bundle, codeCacheSpot(folder, ['diff'], [])).fromCache).toBe(true);
  });

  it('keeps one file per install: two checkouts sharing a folder do not replace each other', () => {
    const folder = path.join(temp.dir, 'e');
    const bundles = [path.join(temp.dir, 'e1.cjs'), path.join(temp.dir, 'e2.cjs')];
    for (const bundle of bundles) build(bundle, bundle.slice(-6, -4), 1_000);
    for (const bundle of bundles) loadBundle(bundle, codeCacheSpot(folder, ['diff'], [])).keep();
    expect(cacheFiles(folder)).toHaveLength(2);
    for (const bundle of bundles) expect(loadBundle(bundle, codeCacheSpot(folder, ['diff'], [])).fromCache).toBe(true);
  });

  it('compiles every time without a spot', () => {
    const bundle = path.join(temp.dir, 'd.cjs');
    build(bundle, 'd', 1_000);
    const loaded = loadBundle(bundle, undefined);
    loaded.keep();
    expect(loaded.fromCache).toBe(false);
  });
});

describe("a run's spot", () => {
  it('is named by the command, past the values of global options', () => {
    expect(codeCacheSpot('/f', ['-c', 'x.yaml', '-j', '2', 'diff', '--json'], [])!.command).toBe('diff');
    expect(codeCacheSpot('/f', ['--config', 'list', 'render'], [])!.command).toBe('render');
    expect(codeCacheSpot('/f', ['--version'], [])!.command).toBe('none');
  });

  it('tells the V8 flags apart', () => {
    const variants = new Set([codeCacheSpot('/f', ['diff'], []), codeCacheSpot('/f', ['diff'], ['--no-opt'])].map((spot) => spot!.variant));
    expect(variants.size).toBe(2);
  });

  it('is none under --no-cache: no code cache is read or written', () => {
    expect(codeCacheSpot('/f', ['--no-cache', 'diff'], [])).toBeUndefined();
  });
});
