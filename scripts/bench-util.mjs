// What the benchmark's modules share (scripts/bench*.mjs).
import { spawn } from 'node:child_process';

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
