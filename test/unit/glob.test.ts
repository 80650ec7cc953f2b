import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { afterAll, describe, expect, it } from 'vitest';
import { isSimpleGlob, simpleGlob } from '../../src/config/glob.js';
import { tempDir } from '../helpers/project.js';

const temp = tempDir('drift-glob-');
afterAll(() => temp.remove());

/** A tree with what a glob can trip on: dot names, symlinked folders and files, a folder named like a file, a dangling link. */
function tree(): string {
  const root = temp.dir;
  for (const folder of ['p/a', 'p/.h', 'p/c', 'p/d/provider.yaml', 'p/A', 'real/b']) mkdirSync(path.join(root, folder), { recursive: true });
  for (const file of ['p/a/provider.yaml', 'p/.h/provider.yaml', 'p/A/Provider.yaml', 'real/b/provider.yaml', 'p/.dot.yaml', 'p/x.yaml', 'p/xy.yaml', 'p/a.b.yaml']) writeFileSync(path.join(root, file), 'x: 1\n');
  symlinkSync('../real/b', path.join(root, 'p/linkdir'));
  symlinkSync('../a/provider.yaml', path.join(root, 'p/c/provider.yaml'));
  symlinkSync('x.yaml', path.join(root, 'p/y.yaml'));
  symlinkSync('nowhere', path.join(root, 'p/broken.yaml'));
  symlinkSync('p', path.join(root, 'plink'));
  return root;
}

describe("the config's globs", () => {
  const root = tree();
  const patterns = [
    'p/*/provider.yaml',
    'p/*.yaml',
    'p/*',
    'p/a*',
    'p/?.yaml',
    'p/x?.yaml',
    'p/*.b.yaml',
    'p/.h/*.yaml',
    'p/.*',
    'plink/*/provider.yaml',
    './p/*.yaml',
    `${root}/p/*.yaml`,
    'p//*.yaml',
    'p/a/provider.yaml',
    'p/c/provider.yaml',
    'p/d/provider.yaml',
    'p/linkdir/provider.yaml',
    'p/*/Provider.yaml',
    'missing/*.yaml',
    '*/a/*.yaml',
  ];

  it.each(patterns)('%s matches what fast-glob matches', (pattern) => {
    expect(isSimpleGlob(pattern)).toBe(true);
    const expected = fg.sync(pattern, { cwd: root, absolute: true, onlyFiles: true, followSymbolicLinks: false }).map((file) => path.normalize(file));
    expect(simpleGlob(pattern, root).sort()).toEqual(expected.sort());
  });

  it('leaves every richer pattern to fast-glob', () => {
    for (const pattern of ['p/**/*.yaml', 'p/{a,b}/*.yaml', 'p/[ab]/*.yaml', 'p/!(a)/*.yaml', 'p/@(a)/*.yaml', 'p/+(a)/*.yaml', 'p/\\*.yaml', 'p/*/../x.yaml']) expect(isSimpleGlob(pattern), pattern).toBe(false);
    expect(isSimpleGlob('../p/*.yaml')).toBe(true);
  });
});
