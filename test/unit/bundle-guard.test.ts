/**
 * scripts/bundle.mjs refuses a bundle that would require a relative path beside dist/bundle/ at run
 * time, and one over its size bound.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO, tempDir } from '../helpers/project.js';

let remove: (() => void) | undefined;
afterEach(() => remove?.());

/** A dist/ whose CLI entry is `source`, bundled by the build's own script. */
async function bundle(source: string, ...flags: string[]) {
  const made = tempDir('drift-bundle-guard-');
  remove = made.remove;
  mkdirSync(path.join(made.dir, 'cli'), { recursive: true });
  writeFileSync(path.join(made.dir, 'cli', 'bundle.js'), source);
  return execa('node', [path.join(REPO, 'scripts/bundle.mjs'), made.dir, ...flags], { cwd: REPO, reject: false, all: true });
}

// A package from the project's node_modules by its path: the temporary dist/ has none above it.
const withYaml = `import { parse } from ${JSON.stringify(path.join(REPO, 'node_modules/yaml/dist/index.js'))};\nexport const main = parse;\n`;

describe('the bundle guard', () => {
  it('fails the build on a UMD factory that requires its own relative module, naming it', async () => {
    // jsonc-parser's UMD main in small: the bundler cannot follow a require passed in as a parameter.
    const result = await bundle(`(function (factory) { factory(typeof require === 'function' ? require : undefined); })(function (require) { globalThis.format = require('./impl/format'); });\nexport const main = 1;\n`);
    expect(result.exitCode).not.toBe(0);
    expect(result.all).toMatch(/the bundle still requires '\.\/impl\/format' \(.*drift\.cjs:\d+\)/);
  });

  it('fails the build on a bundle over its size bound, naming the bound and what weighs most', async () => {
    const result = await bundle(withYaml, '--max-bytes', '20000');
    expect(result.exitCode).not.toBe(0);
    expect(result.all).toMatch(/the bundle is \d+ bytes, over its bound of 20000/);
    expect(result.all).toMatch(/^ +\d+ +\d+\.\d% +yaml$/m);
  });

  it('holds the shipped bundle to 1,500,000 bytes unless told otherwise', async () => {
    expect(readFileSync(path.join(REPO, 'scripts/bundle.mjs'), 'utf8')).toMatch(/^const MAX_BYTES = 1_500_000;$/m);
    const result = await bundle(withYaml, '--analyze');
    expect(result.exitCode).toBe(0);
    expect(result.all).toMatch(/drift\.cjs: \d+ bytes; rendered bytes by package:\n +\d+ +\d+\.\d% +yaml\n/);
  });

  it('passes a bundle whose every require is of a package or node:', async () => {
    const result = await bundle(`import { sep } from 'node:path';\nexport const main = sep;\n`);
    expect(result.all).toBe('');
    expect(result.exitCode).toBe(0);
  });
});
