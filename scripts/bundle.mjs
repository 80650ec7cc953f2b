#!/usr/bin/env node
// Part of the build: drift's CLI and every dependency it imports, in one CommonJS file,
// <dist>/bundle/drift.cjs, which bin/drift.js runs with V8's code cache (src/cli/codeCache.ts):
// a cold process compiled drift's modules one by one at every start (bench/HISTORY.md).
// It sits two folders below the package root, as every dist/ module does, so the paths drift finds
// from its own file (queries/, schemas/, package.json) stay right. web-tree-sitter's CommonJS build
// is in it too (a script run by node:vm has no import() on Node 20 but an experimental one), its
// WebAssembly found through its package (src/outline/grammar.ts): compiled from V8's code cache with
// the rest, where a required copy was compiled anew by every process that outlines (23 ms of drift
// CPU, median of 5 pairs, measured on 7 December 2026 (2 cores, Intel Xeon, load 16)).
// The bundle may not pass MAX_BYTES (issue 36's 1.5 MB, with the margin of 1,500,000 bytes): every
// byte is read and compiled, or looked up in the code cache, at every start. Over the bound the build
// fails naming the packages that weigh most; `--analyze` prints that list on any build.
//   node scripts/bundle.mjs [dist folder, default ./dist] [--analyze] [--max-bytes N]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'rolldown';

const MAX_BYTES = 1_500_000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: flags, positionals } = parseArgs({ allowPositionals: true, options: { analyze: { type: 'boolean' }, 'max-bytes': { type: 'string' } } });
const maxBytes = flags['max-bytes'] === undefined ? MAX_BYTES : Number(flags['max-bytes']);
if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) throw new Error(`scripts/bundle.mjs: --max-bytes takes a positive whole number of bytes, got ${flags['max-bytes']}`);
const dist = path.resolve(positionals[0] ?? path.join(root, 'dist'));
const output = await build({
  input: path.join(dist, 'cli', 'bundle.js'),
  platform: 'node',
  external: [/^node:/],
  logLevel: 'warn',
  // A dependency it cannot find (a dist/ with no node_modules above it) would be left to a require
  // that fails at run time, and an import.meta other than .url (import.meta.resolve) would become
  // {}: fail the build instead.
  onLog(level, log, handle) {
    if (log.code === 'UNRESOLVED_IMPORT' || log.code === 'EMPTY_IMPORT_META') throw new Error(`scripts/bundle.mjs: ${log.message}`);
    // web-tree-sitter's Emscripten loader evals its own generated glue: known, and kept as it is.
    if (log.code === 'EVAL' && /node_modules\/web-tree-sitter\//.test(log.id ?? log.message)) return;
    handle(level, log);
  },
  output: {
    file: path.join(dist, 'bundle', 'drift.cjs'),
    format: 'cjs',
    codeSplitting: false,
    dynamicImportInCjs: false,
    // Whitespace and comments out, dead code dropped and local names shortened (functions and classes
    // keep their names, which messages and stack traces show): under half the bytes to read and
    // compile at every start; every other character escaped, so that the file is read as Latin-1
    // into a one-byte string.
    minify: { compress: true, mangle: { keepNames: true }, codegen: { removeWhitespace: true, asciiOnly: true } },
    comments: false,
    sourcemap: false,
  },
});
const bundle = readFileSync(path.join(dist, 'bundle', 'drift.cjs'));
const wide = bundle.findIndex((byte) => byte > 0x7f);
if (wide >= 0) throw new Error(`the bundle has a character beyond ASCII at byte ${wide}: src/cli/codeCache.ts reads it as Latin-1`);
// A require of a relative path the bundler did not follow (a UMD factory's own `require('./impl/x')`,
// as jsonc-parser's was) would look beside dist/bundle/ at run time and crash there: fail the build.
const text = bundle.toString('latin1');
// The minifier renames a `require` parameter (`e('./impl/x')`) and quotes with backticks: any plain
// call (not a method) of one relative path counts; drift's own code makes none.
const relative = /(?<![.\w$])[A-Za-z_$][\w$]*\(\s*(["'`])(\.{1,2}\/[^"'`]*)\1\s*\)/.exec(text);
if (relative) {
  const line = text.slice(0, relative.index).split('\n').length;
  throw new Error(`scripts/bundle.mjs: the bundle still requires '${relative[2]}' (${path.relative(root, path.join(dist, 'bundle', 'drift.cjs'))}:${line}), which would be looked for beside the bundle at run time: bundle that dependency's ES modules or drop it`);
}

/**
 * The bundle's weight by package (drift's own modules by top folder), heaviest first: each module's
 * bytes as the bundler rendered it, before whitespace is removed, so the shares, not the sums, compare
 * with the file's size.
 */
function weights(chunk) {
  const byPackage = new Map();
  for (const [id, module] of Object.entries(chunk.modules)) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id)?.[1] ?? `drift ${path.relative(dist, id).split(path.sep)[0]}/`;
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + module.renderedLength);
  }
  const total = [...byPackage.values()].reduce((sum, bytes) => sum + bytes, 0);
  return [...byPackage].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([pkg, bytes]) => `${String(bytes).padStart(9)}  ${((100 * bytes) / total).toFixed(1).padStart(4)}%  ${pkg}`);
}
const chunk = output.output.find((item) => item.type === 'chunk');
if (flags.analyze) process.stdout.write(`${path.relative(root, path.join(dist, 'bundle', 'drift.cjs'))}: ${bundle.length} bytes; rendered bytes by package:\n${weights(chunk).join('\n')}\n`);
if (bundle.length > maxBytes) {
  throw new Error(`scripts/bundle.mjs: the bundle is ${bundle.length} bytes, over its bound of ${maxBytes}: cut a dependency the program barely uses or a path only tests take. Heaviest (rendered bytes):\n${weights(chunk).slice(0, 12).join('\n')}`);
}
