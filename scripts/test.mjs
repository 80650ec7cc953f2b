#!/usr/bin/env node
// `npm test`: every check, in order, each the command its own npm script runs (package.json
// "scripts", so `npm run lint` and `npm test` cannot drift apart), started directly rather than
// through a nested `npm run` each (measured: 0.6 CPU-s of npm per step). The build runs only when
// dist/ was not built from these sources (scripts/source-stamp.mjs); each step prints its time.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { built } from './source-stamp.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts;
const STEPS = ['build', 'typecheck', 'lint', 'layers', 'deadcode', 'test:vitest', 'test:providers'];
const env = { ...process.env, PATH: `${path.join(root, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}` };

for (const step of STEPS) {
  if (step === 'build' && built()) {
    console.log('test: build skipped (dist/ was built from these sources)');
    continue;
  }
  const began = performance.now();
  console.log(`> ${step}: ${scripts[step]}`);
  const result = spawnSync(scripts[step], { cwd: root, env, shell: true, stdio: 'inherit' });
  console.log(`test: ${step} took ${((performance.now() - began) / 1000).toFixed(1)} s`);
  if (result.status !== 0) {
    console.error(`test: ${step} failed (exit ${result.status ?? result.signal}); run \`npm run ${step}\` to repeat it`);
    process.exit(1);
  }
}
