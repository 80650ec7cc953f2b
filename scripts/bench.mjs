#!/usr/bin/env node
// drift's benchmark (npm run bench). Not a test: it measures and prints.
//   floor:  start every bundled provider, answer one RunFunction call each, stop (what no run can avoid)
//   full:   everything `drift diff` does (every provider × scenario, determinism re-render, gating ablations,
//           skeletons, goldens, divergences, rules)
//   ratio:  full / floor, medians of several repetitions, printed last
//   scale:  synthetic adapters reusing the example functions under many names × a generated scenario set
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { loadProject } from '../dist/config/load.js';
import { diffProject } from '../dist/pipeline/diff.js';
import { FunctionProcess } from '../dist/render/process.js';
import { buildRequest } from '../dist/world/protocol.js';
import { buildXR } from '../dist/world/xr.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPS = Number(process.env.BENCH_REPS ?? 9);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** CPU time of this process and of its finished children (the function processes), in ms. */
function cpuNow() {
  const own = process.cpuUsage();
  let children = 0;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    children = ((Number(fields[13]) + Number(fields[14])) * 1000) / 100; // cutime + cstime, in clock ticks
  } catch {
    // not Linux: children's CPU is not reported
  }
  return { drift: (own.user + own.system) / 1000, functions: children };
}

async function measured(work) {
  const cpu = cpuNow();
  const began = performance.now();
  const result = await work();
  const after = cpuNow();
  return { ...result, ms: performance.now() - began, driftCpu: after.drift - cpu.drift, functionsCpu: after.functions - cpu.functions };
}

/** Start every bundled provider at once (as drift does), each answering one call (its start-up probe), then stop. */
async function floor(project) {
  return measured(async () => {
    await Promise.all(
      project.adapters.map(async (adapter) => {
        const probe = buildRequest(buildXR(adapter, project.scenarios[0]), new Map(), undefined);
        const fn = await FunctionProcess.start(adapter, { ...project.config.timeouts, probe });
        await fn.stop();
      }),
    );
    return {};
  });
}

/** Peak resident memory of this process's children (the function processes), sampled. */
function childMemorySampler() {
  let peak = 0;
  const sample = () => {
    let total = 0;
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (ppid !== process.pid) continue;
        const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
        total += rss ? Number(rss[1]) * 1024 : 0;
      } catch {
        // gone
      }
    }
    peak = Math.max(peak, total);
  };
  const timer = setInterval(sample, 50);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

/** What `drift diff` runs: the pipeline over every provider × scenario, then the run's findings. */
async function full(project) {
  return measured(async () => {
    const result = await diffProject({ full: project, project, filters: { providers: [], scenarios: [] } });
    const outlines = result.outlined.map(({ adapter, result: outline }) => ({ provider: adapter.name, ms: outline.ms, files: Object.keys(outline.outline.files).length }));
    return { calls: result.run.calls, findings: result.findings.filter((f) => !f.accepted).length, outlines };
  });
}

function syntheticProject(providers, scenarios) {
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
  writeFileSync(path.join(dir, 'drift.config.yaml'), 'goldens: goldens\n');
  return dir;
}

const project = await loadProject(undefined, root);
const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
console.log(`machine: ${machine}`);
console.log(`bundled set: ${project.adapters.length} providers × ${project.scenarios.length} scenarios, concurrency ${project.config.concurrency}, ${REPS} repetitions`);
await floor(project); // warm the file cache and Python's bytecode cache
await full(project);
const floors = [];
const fulls = [];
for (let i = 0; i < REPS; i += 1) {
  // Interleaved, so a slow spell of a shared machine lands on both.
  floors.push(await floor(project));
  fulls.push(await full(project));
}
const ms = (runs) => median(runs.map((run) => run.ms));
const cpu = (runs) => `CPU drift ${median(runs.map((run) => run.driftCpu)).toFixed(0)} ms + functions ${median(runs.map((run) => run.functionsCpu)).toFixed(0)} ms`;
console.log(`floor  median ${ms(floors).toFixed(0)} ms  (runs: ${floors.map((run) => run.ms.toFixed(0)).join(', ')}; ${cpu(floors)})`);
console.log(`full   median ${ms(fulls).toFixed(0)} ms  (runs: ${fulls.map((run) => run.ms.toFixed(0)).join(', ')}; ${cpu(fulls)}; ${fulls[0].calls} RunFunction calls)`);
// Outlines are parsed in every full run, beside the renders: the median parse time per provider.
for (const { provider } of fulls[0].outlines) {
  const times = fulls.map((run) => run.outlines.find((outline) => outline.provider === provider).ms);
  console.log(`outline ${provider}: ${fulls[0].outlines.find((outline) => outline.provider === provider).files} files, parse median ${median(times).toFixed(1)} ms (runs: ${times.map((t) => t.toFixed(1)).join(', ')})`);
}
if (fulls.some((run) => run.findings > 0)) console.log('note: the full runs reported findings; the goldens are not current');
const paired = median(fulls.map((run, i) => run.ms / floors[i].ms));

if (process.env.BENCH_SCALE !== '0') {
  const [providers, scenarios] = (process.env.BENCH_SCALE ?? '12x24').split('x').map(Number);
  const dir = syntheticProject(providers, scenarios);
  try {
    const synthetic = await loadProject(undefined, dir);
    const stopSampling = childMemorySampler();
    const run = await full(synthetic);
    const childPeak = stopSampling();
    const rss = process.resourceUsage().maxRSS * 1024;
    const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
    console.log(
      `scale  ${providers} providers × ${scenarios} scenarios, concurrency ${synthetic.config.concurrency}: ${(run.ms / 1000).toFixed(1)} s, ${run.calls} RunFunction calls, ${(run.calls / (run.ms / 1000)).toFixed(0)} calls/s, peak RSS drift ${mib(rss)}, functions ${mib(childPeak)}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
// The --changed line (its own module, scripts/bench-changed.mjs): one of 24 providers changed, against a one-provider run.
if (process.env.BENCH_CHANGED !== '0') await (await import('./bench-changed.mjs')).benchChanged(root, { reps: Math.min(REPS, 5) });
console.log(`ratio  full / floor = ${(ms(fulls) / ms(floors)).toFixed(2)} (median of the per-repetition ratios: ${paired.toFixed(2)})`);
