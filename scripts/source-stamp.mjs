#!/usr/bin/env node
// The hash of everything a build of drift is made from (src/, schemas/, tsconfig.json, package.json
// and the build's own scripts). `npm run build` writes it to dist/.source-hash; `npm test`
// (scripts/test.mjs) and the tests' global set-up (test/global-setup.ts) reuse dist/ when the hash
// still matches instead of compiling again.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const STAMP = 'dist/.source-hash';

function files(dir) {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

export function sourceHash() {
  const hash = createHash('sha256');
  for (const file of [...files('src'), ...files('schemas'), 'tsconfig.json', 'package.json', 'scripts/compile-schemas.mjs', 'scripts/bundle.mjs', 'scripts/source-stamp.mjs'].sort()) {
    hash.update(`${file}\0`).update(readFileSync(path.join(root, file))).update('\0');
  }
  return hash.digest('hex');
}

/** True when dist/ was built from exactly the sources as they are now. */
export function built() {
  const stamp = path.join(root, STAMP);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === sourceHash();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(path.join(root, STAMP), `${sourceHash()}\n`);
