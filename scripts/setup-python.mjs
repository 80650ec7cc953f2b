#!/usr/bin/env node
// Creates .venv, the Python environment of the bundled example providers, from
// providers/requirements.txt. Runs from `prepare`, so on `npm install` and `npm ci` in this repository
// but never when the packed drift is installed elsewhere; re-runs only when the requirements change.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const requirements = path.join(root, 'providers', 'requirements.txt');
const venv = path.join(root, '.venv');
const stamp = path.join(venv, '.drift-requirements.sha256');
const python = process.env.DRIFT_PYTHON ?? 'python3';

if (!existsSync(requirements)) process.exit(0); // installed as a dependency: no bundled providers to serve

const wanted = createHash('sha256').update(readFileSync(requirements)).digest('hex');
if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === wanted) process.exit(0);

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.error || result.status !== 0) {
    const why = result.error ? result.error.message : `exit code ${result.status}`;
    console.error(`drift: setting up the providers' Python environment failed: ${command} ${args.join(' ')}: ${why}`);
    console.error('drift: the bundled providers need Python 3.11+ (set DRIFT_PYTHON to pick an interpreter); then run `npm run setup:python`.');
    process.exit(1);
  }
}

console.log(`drift: creating ${path.relative(process.cwd(), venv) || venv} for the bundled providers (${python})`);
rmSync(venv, { recursive: true, force: true });
run(python, ['-m', 'venv', venv]);
run(path.join(venv, 'bin', 'python'), ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '-r', requirements]);
writeFileSync(stamp, `${wanted}\n`);
console.log('drift: Python environment ready');
