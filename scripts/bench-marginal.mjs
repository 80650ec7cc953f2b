// The isolated per-call line of drift's benchmark (npm run bench): drift's marginal CPU of one more
// RunFunction call, measured in a child process that does nothing else. The main bench measures the
// same difference inside its own process, between full runs and spawned CLIs, whose heap and JIT
// state make each call dearer (bench/HISTORY.md, round 7). Each child:
//   loads the bundled project, answer cache off; runs runProject with determinism and gating on and
//   off, alternately, 3 times each to warm up, then `reps` times each, measured;
//   prints the medians: (on − off) / (their calls' difference) is the marginal CPU per call.
// Two children: Node's default V8 flags, and drift's own (bin/v8-flags.js: no TurboFan, WebAssembly
// on its baseline tier), as `drift diff` pays it and as the main bench's in-process lines run.
import path from 'node:path';
import { driftV8Flags } from '../bin/v8-flags.js';
import { median, nodeChild } from './bench-util.mjs';

const CHILD = `
const [{ loadProject }, { runProject }] = await Promise.all([import(process.argv[1] + '/dist/config/load.js'), import(process.argv[1] + '/dist/pipeline/run.js')]);
const reps = Number(process.argv[2]);
const project = { ...(await loadProject(undefined, process.argv[1], process.env)), cache: undefined };
const modes = { on: {}, off: { determinism: false, gating: false } };
const cpu = { on: [], off: [] };
const calls = {};
for (let i = 0; i < 3 + reps; i++) {
  for (const [mode, options] of Object.entries(modes)) {
    const before = process.cpuUsage();
    calls[mode] = (await runProject(project, options)).calls;
    const used = process.cpuUsage(before);
    if (i >= 3) cpu[mode].push((used.user + used.system) / 1000);
  }
}
console.log(JSON.stringify({ cpu, calls }));
`;

export async function benchMarginal(root, { reps }) {
  const line = (result) => {
    const apart = result.calls.on - result.calls.off;
    const marginal = (median(result.cpu.on) - median(result.cpu.off)) / apart;
    const paired = median(result.cpu.on.map((on, i) => (on - result.cpu.off[i]) / apart));
    return `${marginal.toFixed(2)} ms (paired ${paired.toFixed(2)} ms; runProject ${median(result.cpu.on).toFixed(0)} ms on, ${median(result.cpu.off).toFixed(0)} ms off, ${apart} calls apart)`;
  };
  const plain = await nodeChild(path.resolve(root), [], CHILD, [String(reps)], 'bench-marginal child (Node flags)');
  const flagged = await nodeChild(path.resolve(root), driftV8Flags(process.env), CHILD, [String(reps)], "bench-marginal child (drift's flags)");
  console.log(
    `per call  isolated (a child doing nothing else, 3 warm-ups, median of ${reps}; goal ≤1.0 ms): drift's marginal CPU under Node's default flags ${line(plain)}; ` +
      `under drift's own flags (${driftV8Flags(process.env).join(' ') || 'none'}), as drift diff pays it, ${line(flagged)}`,
  );
}
