#!/usr/bin/env node
// drift's benchmark (npm run bench). Not a test: it measures and prints.
//   floor:  start every bundled provider, answer one RunFunction call each, stop (what no run can avoid)
//   full:   everything `drift diff` does (every provider × scenario, determinism re-render, gating ablations,
//           skeletons, goldens, divergences, rules)
//   ratio:  full / floor, medians of several repetitions, printed last
//   scale:  synthetic adapters reusing the example functions under many names × a generated scenario set
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { check } from '../dist/check.js';
import { loadProject } from '../dist/config/load.js';
import { GoldenStore } from '../dist/goldens/store.js';
import { FunctionProcess } from '../dist/render/process.js';
import { buildRequest } from '../dist/world/protocol.js';
import { buildXR } from '../dist/world/xr.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPS = Number(process.env.BENCH_REPS ?? 5);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function floor(project) {
  // drift starts every provider at once, so the floor does too.
  const began = performance.now();
  await Promise.all(
    project.adapters.map(async (adapter) => {
      const probe = buildRequest(buildXR(adapter, project.scenarios[0]), new Map(), undefined);
      const fn = await FunctionProcess.start(adapter, { ...project.config.timeouts, probe });
      await fn.call(probe);
      await fn.stop();
    }),
  );
  return performance.now() - began;
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

async function full(project) {
  const store = new GoldenStore(path.resolve(project.config.root, project.config.goldens));
  const began = performance.now();
  const result = await check(project, store, { filtered: false });
  return { ms: performance.now() - began, calls: result.analysis.calls, findings: result.findings.filter((f) => !f.accepted).length };
}

function syntheticProject(providers, scenarios) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'drift-bench-'));
  const examples = ['gke', 'eks', 'nebius'];
  for (let i = 0; i < providers; i += 1) {
    const example = examples[i % examples.length];
    const adapter = readFileSync(path.join(root, 'providers', example, 'provider.yaml'), 'utf8')
      .replace(/^name: .*$/m, `name: ${example}-${i}`)
      .replace('../../.venv/bin/python', path.join(root, '.venv/bin/python'))
      .replace(/^  cwd: .*$/m, `  cwd: ${path.join(root, 'providers', example)}`);
    mkdirSync(path.join(dir, 'providers', `${example}-${i}`), { recursive: true });
    writeFileSync(path.join(dir, 'providers', `${example}-${i}`, 'provider.yaml'), adapter);
  }
  mkdirSync(path.join(dir, 'scenarios'));
  const perturbations = [[], [{ do: 'remove-credentials', steps: 3 }], [{ do: 'unready', role: 'cluster', steps: 3 }], [{ do: 'delete', role: 'node-pool', steps: 3 }]];
  for (let i = 0; i < scenarios; i += 1) {
    const pools = Array.from({ length: 1 + (i % 3) }, (_, p) => ({ name: `pool${p}`, gpu: p % 2 ? 'H100' : 'L4', gpuCount: 1 + p, nodeCount: 1, minNodeCount: 0, maxNodeCount: 4, zones: 1 + (p % 2) }));
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
const floors = [];
const fulls = [];
let last;
for (let i = 0; i < REPS; i += 1) {
  floors.push(await floor(project));
  last = await full(project);
  fulls.push(last.ms);
}
console.log(`floor  median ${median(floors).toFixed(0)} ms  (runs: ${floors.map((v) => v.toFixed(0)).join(', ')})`);
console.log(`full   median ${median(fulls).toFixed(0)} ms  (runs: ${fulls.map((v) => v.toFixed(0)).join(', ')}; ${last.calls} RunFunction calls)`);

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
      `scale  ${providers} providers × ${scenarios} scenarios: ${(run.ms / 1000).toFixed(1)} s, ${run.calls} RunFunction calls, ${(run.calls / (run.ms / 1000)).toFixed(0)} calls/s, peak RSS drift ${mib(rss)}, functions ${mib(childPeak)}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(`ratio  full / floor = ${(median(fulls) / median(floors)).toFixed(2)}`);
