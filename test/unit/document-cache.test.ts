import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { readLocatedYamlFile } from '../../src/config/yamlFile.js';
import { parseGoldenYaml } from '../../src/goldens/parsedText.js';
import { tempDir } from '../helpers/project.js';

const folder = tempDir('drift-documents-');
afterAll(() => folder.remove());
/** The cache policy of a run whose cache folder is <temp>/cache, as the edge resolves it. */
const cache = { enabled: true, folder: path.join(folder.dir, 'cache') };

const schema = { type: 'object', properties: { name: { type: 'string' }, size: { type: 'number' }, any: {} }, required: ['name'], additionalProperties: false };
const kept = () => readdirSync(path.join(folder.dir, 'cache', 'documents')).filter((name) => name.endsWith('.json'));

function file(name: string, text: string): string {
  const at = path.join(folder.dir, name);
  writeFileSync(at, text);
  return at;
}

describe('the parsed-document cache', () => {
  it('keeps a valid document; a hit has the same data and still locates lines, parsing only then', () => {
    const at = file('a.yaml', '# a comment\nname: gke\nsize: 3\n');
    const first = readLocatedYamlFile<{ name: string }>(at, schema, { cache });
    expect(kept()).toHaveLength(1);
    const second = readLocatedYamlFile<{ name: string }>(at, schema, { cache });
    expect(second.data).toEqual(first.data);
    expect(second.data).not.toBe(first.data);
    expect(second.locate(['size'])).toEqual({ line: 3, col: 7 });
    expect(second.locate(['size'])).toEqual(first.locate(['size']));
  });

  it('keeps nothing that failed, so the error is found again with its line; nor what JSON cannot hold', () => {
    const before = kept().length;
    const bad = file('b.yaml', 'name: eks\ncolour: blue\n');
    for (let i = 0; i < 2; i += 1) expect(() => readLocatedYamlFile(bad, schema, { cache })).toThrow(/b\.yaml:2:1: unknown key "colour"/);
    readLocatedYamlFile(file('c.yaml', 'name: aks\nany: .inf\n'), schema, { cache });
    expect(kept()).toHaveLength(before);
    expect(readLocatedYamlFile<{ any: number }>(path.join(folder.dir, 'c.yaml'), schema, { cache }).data.any).toBe(Infinity);
  });

  it('a changed text or another schema misses', () => {
    const at = file('d.yaml', 'name: vultr\n');
    readLocatedYamlFile(at, schema, { cache });
    const before = kept().length;
    readLocatedYamlFile(at, { ...schema, required: [] }, { cache });
    writeFileSync(at, 'name: nebius\n');
    expect(readLocatedYamlFile<{ name: string }>(at, schema, { cache }).data.name).toBe('nebius');
    expect(kept()).toHaveLength(before + 2);
  });

  it('keeps a parsed golden for the next process, which reads it back frozen instead of parsing; text that is not YAML is not kept', async () => {
    const text = 'outline: 1\nprovider: gke\nfiles: {function/fn.py: {kind: module}}\n';
    const before = new Set(kept());
    expect(parseGoldenYaml(text, cache)).toEqual({ outline: 1, provider: 'gke', files: { 'function/fn.py': { kind: 'module' } } });
    const added = kept().filter((name) => !before.has(name));
    expect(added).toHaveLength(1);
    expect(parseGoldenYaml('outline: [1\n', cache)).toBeUndefined();
    expect(kept()).toHaveLength(before.size + 1);
    // The entry now says something the text does not: a hit must answer with it.
    writeFileSync(path.join(cache.folder, 'documents', added[0]!), JSON.stringify({ data: { outline: 1, provider: 'from the cache' } }));
    // The next process: this module's in-process entries gone, the cache folder the same.
    vi.resetModules();
    const golden = await import('../../src/goldens/parsedText.js');
    const read = golden.parseGoldenYaml(text, cache) as { provider: string };
    expect(read.provider).toBe('from the cache');
    expect(Object.isFrozen(read)).toBe(true);
  });
});
