/** The direct canonical writer against the yaml library's Document, which defines the format. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { toCanonicalYaml } from '../../src/skeleton/canonical.js';
import { viaDocument } from '../../src/util/yaml.js';
import type { Skeleton } from '../../src/skeleton/types.js';

const root = path.resolve(import.meta.dirname, '../..');
const goldens = fg.sync('goldens/*/*.yaml', { cwd: root });

const asSkeleton = (value: unknown) => value as Skeleton;

describe('toCanonicalYaml', () => {
  it('writes every committed golden byte for byte as the yaml library does', () => {
    expect(goldens.length).toBeGreaterThan(20);
    for (const file of goldens) {
      const text = readFileSync(path.join(root, file), 'utf8');
      const value = parse(text) as unknown;
      expect(toCanonicalYaml(asSkeleton(value)), file).toBe(viaDocument(value));
      expect(toCanonicalYaml(asSkeleton(value)), file).toBe(text);
    }
  });

  it('quotes, nests and leaves out exactly what the library does', () => {
    const awkward = ['a,b', 'x: y', '#c', '- d', 'true', 'null', '1.0', '0x1F', '', ' lead', 'trail ', "it's", 'say "hi"', 'ünï', '{xr}-k', '[x]', 'a\\b', '~', 'yes', '@at', '%p', '!t', '&a', '*s', '|p', '>q', '?q', 'a #b', 'a:b'];
    const values: unknown[] = [
      { skeleton: 1, list: awkward, map: Object.fromEntries(awkward.map((text, i) => [text || `empty${i}`, text])) },
      { small: { 'a,b': 'c,d', 'x y': '{z}' }, big: { a: 1, b: 2, c: 3, d: 4, e: 5 }, numbers: [-1, 0.5], flags: [true, false, null], gone: undefined },
      { items: [{ a: 1, b: { c: [1, { d: 2 }], e: 'f,g', f: 1, g: 2, h: 3 } }, 'plain', { e: [] }, {}, []] },
    ];
    for (const value of values) expect(toCanonicalYaml(asSkeleton(value))).toBe(viaDocument(value));
  });

  it('hands what it does not lay out itself to the library: lists of lists, multi-line text', () => {
    const values = [{ lists: [[1, 2], [3, { a: 1 }]] }, { text: 'two\nlines', more: { deeper: 'a\nb' } }];
    for (const value of values) expect(toCanonicalYaml(asSkeleton(value))).toBe(viaDocument(value));
  });
});
