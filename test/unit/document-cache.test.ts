import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useDocumentCache } from '../../src/config/documentCache.js';
import { readLocatedYamlFile } from '../../src/config/yamlFile.js';
import { tempDir } from '../helpers/project.js';

const folder = tempDir('drift-documents-');
afterAll(() => {
  useDocumentCache(undefined);
  folder.remove();
});

const schema = { type: 'object', properties: { name: { type: 'string' }, size: { type: 'number' }, any: {} }, required: ['name'], additionalProperties: false };
const kept = () => readdirSync(path.join(folder.dir, 'cache', 'documents')).filter((name) => name.endsWith('.json'));

function file(name: string, text: string): string {
  const at = path.join(folder.dir, name);
  writeFileSync(at, text);
  return at;
}

describe('the parsed-document cache', () => {
  it('keeps a valid document; a hit has the same data and still locates lines, parsing only then', () => {
    useDocumentCache(path.join(folder.dir, 'cache'));
    const at = file('a.yaml', '# a comment\nname: gke\nsize: 3\n');
    const first = readLocatedYamlFile<{ name: string }>(at, schema);
    expect(kept()).toHaveLength(1);
    const second = readLocatedYamlFile<{ name: string }>(at, schema);
    expect(second.data).toEqual(first.data);
    expect(second.data).not.toBe(first.data);
    expect(second.locate(['size'])).toEqual({ line: 3, col: 7 });
    expect(second.locate(['size'])).toEqual(first.locate(['size']));
  });

  it('keeps nothing that failed, so the error is found again with its line; nor what JSON cannot hold', () => {
    useDocumentCache(path.join(folder.dir, 'cache'));
    const before = kept().length;
    const bad = file('b.yaml', 'name: eks\ncolour: blue\n');
    for (let i = 0; i < 2; i += 1) expect(() => readLocatedYamlFile(bad, schema)).toThrow(/b\.yaml:2:1: unknown key "colour"/);
    readLocatedYamlFile(file('c.yaml', 'name: aks\nany: .inf\n'), schema);
    expect(kept()).toHaveLength(before);
    expect(readLocatedYamlFile<{ any: number }>(path.join(folder.dir, 'c.yaml'), schema).data.any).toBe(Infinity);
  });

  it('a changed text or another schema misses', () => {
    useDocumentCache(path.join(folder.dir, 'cache'));
    const at = file('d.yaml', 'name: vultr\n');
    readLocatedYamlFile(at, schema);
    const before = kept().length;
    readLocatedYamlFile(at, { ...schema, required: [] });
    writeFileSync(at, 'name: nebius\n');
    expect(readLocatedYamlFile<{ name: string }>(at, schema).data.name).toBe('nebius');
    expect(kept()).toHaveLength(before + 2);
  });
});
