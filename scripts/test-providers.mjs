#!/usr/bin/env node
// Runs each bundled provider's pytest suite in its own folder: every provider is a separate
// Python project with its own `function` package, so they cannot share one interpreter session.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const python = path.join(root, '.venv', 'bin', 'python');
const providers = path.join(root, 'providers');
let failed = 0;
for (const name of readdirSync(providers).sort()) {
  const dir = path.join(providers, name);
  if (!existsSync(path.join(dir, 'tests'))) continue;
  console.log(`providers/${name}:`);
  const result = spawnSync(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests'], { cwd: dir, stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
