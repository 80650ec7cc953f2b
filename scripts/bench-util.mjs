// What the benchmark's modules share (scripts/bench*.mjs).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';

/** The middle value (the upper one of an even count). */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Runs `script` (an ES module's source) in a fresh node with `flags`, in `root`, with `args` after
 * it (`process.argv[1]` onwards); resolves with the JSON it prints, rejects naming `label` if it fails.
 */
export function nodeChild(root, flags, script, args, label) {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [...flags, '--input-type=module', '-e', script, root, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (chunk) => (out += chunk));
    proc.on('error', reject);
    proc.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${label} exited ${code}`))));
  });
}

/**
 * The scale line's synthetic project: `providers` adapters reusing the bundled examples' functions
 * under many names, and `scenarios` generated scenarios; no goldens (shared by bench.mjs and bench-page.mjs).
 */
export function syntheticProject(root, providers, scenarios) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'drift-bench-'));
  // Every bundled example, so the synthetic set is as heterogeneous as the real one.
  const examples = readdirSync(path.join(root, 'providers')).filter((name) => existsSync(path.join(root, 'providers', name, 'provider.yaml'))).sort();
  for (let i = 0; i < providers; i += 1) {
    const example = examples[i % examples.length];
    const adapter = readFileSync(path.join(root, 'providers', example, 'provider.yaml'), 'utf8')
      .replace(/^name: .*$/m, `name: ${example}-${i}`)
      .replace('../../.venv/bin/python', path.join(root, '.venv/bin/python'))
      .replace(/^  cwd: .*$/m, `  cwd: ${path.join(root, 'providers', example)}`)
      .replace(/^xrd: (\S+)/m, (_line, xrd) => `xrd: ${path.join(root, 'providers', example, xrd)}`);
    mkdirSync(path.join(dir, 'providers', `${example}-${i}`), { recursive: true });
    writeFileSync(path.join(dir, 'providers', `${example}-${i}`, 'provider.yaml'), adapter);
  }
  mkdirSync(path.join(dir, 'scenarios'));
  const perturbations = [[], [{ do: 'remove-credentials', steps: 3 }], [{ do: 'unready', role: 'cluster', steps: 3 }], [{ do: 'delete', role: 'node-pool', steps: 3 }]];
  for (let i = 0; i < scenarios; i += 1) {
    const pools = Array.from({ length: 1 + (i % 3) }, (_, p) => ({ name: `pool${p}`, gpu: p % 2 ? 'H100' : 'L4', gpuCount: p % 2 ? 1 : 1 + ((p / 2) % 2), nodeCount: 1, minNodeCount: 0, maxNodeCount: 4, zones: 1 + (p % 2) }));
    const scenario = {
      description: `synthetic scenario ${i}`,
      xr: { nodePools: pools },
      world: { credentials: i % 5 === 4 ? 'missing' : 'present', ready: i % 7 === 6 ? 'none' : 'all' },
      ...(perturbations[i % 4].length && i % 5 !== 4 && i % 7 !== 6 ? { then: perturbations[i % 4] } : {}),
      ...(i === 0 ? { ablate: true } : {}),
    };
    writeFileSync(path.join(dir, 'scenarios', `s${String(i).padStart(2, '0')}.yaml`), stringify(scenario));
  }
  // The adapters point at the examples' functions and XRDs in this repository: a root of the project too.
  writeFileSync(path.join(dir, 'drift.config.yaml'), `goldens: goldens\nroots: [${JSON.stringify(root)}]\n`);
  return dir;
}
