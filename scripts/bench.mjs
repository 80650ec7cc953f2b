#!/usr/bin/env node
// drift's benchmark (npm run bench). Not a test: it measures and prints. docs/performance.md explains each line.
// Its own process runs under drift's V8 flags (scripts/bench-flags.mjs), as `drift diff` does.
//   floor:    start every bundled provider, answer one RunFunction call each, stop (what no run can avoid)
//   full:     everything `drift diff` does, in process, answer cache off
//   calls:    by purpose, from runs with determinism and gating switched off and on
//   marginal: drift's CPU of one more call: (full − full without determinism and gating) / (their calls' difference);
//             again in an isolated child, under Node's flags and under drift's (scripts/bench-marginal.mjs)
//   fixed:    drift's CPU per run that no call explains: full − marginal × calls
//   CLI:      `drift --no-cache diff` spawned, minus the in-process full run (CPU, paired); `drift diff`
//             again on an unchanged tree with the caches warm, and with the cell cache emptied; `drift list`; `drift --version`
//   scale:    synthetic adapters reusing the example functions under many names × a generated scenario set
//   style:    comparing the providers' code (outline cold, every provider, the style judge), on against off
//   mcp:      drift mcp after one edit to one provider, its processes kept or not; its V8 flags over 50 calls (scripts/bench-mcp.mjs)
//   ablation: each speed layer turned off, paired with it on (scripts/bench-ablation.mjs)
//   page:     the conformance page of the scaled set at 24 × 14: its size, and its load in headless Chromium (scripts/bench-page.mjs)
// BENCH_REPS (default 9; BENCH_QUICK=1: 3), BENCH_SCALE (default 12x14,24x14,48x14; 0 skips), BENCH_CHANGED=0 skips the --changed line, BENCH_STYLE=0 the style line, BENCH_MARGINAL=0 the isolated per-call line, BENCH_ABLATION=0 the ablation table, BENCH_MCP=0 the MCP lines, BENCH_PAGE=0 the page line.
import './bench-flags.mjs'; // first: drift's V8 flags before any of its modules loads
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { credentials, makeGenericClientConstructor } from '@grpc/grpc-js';
import { FunctionRunnerServiceService, RunFunctionRequest } from '@crossplane-org/function-sdk-typescript';
import { loadProject } from '../dist/config/load.js';
import { diffProject } from '../dist/pipeline/diffRun.js';
import { runProject } from '../dist/pipeline/run.js';
import { FunctionProcess } from '../dist/functions/process.js';
import { FunctionClient } from '../dist/functions/client.js';
import { buildRequest } from '../dist/world/protocol.js';
import { buildXR } from '../dist/world/xr.js';
import { median, syntheticProject } from './bench-util.mjs';
import { driftV8Flags } from '../bin/v8-flags.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPS = Number(process.env.BENCH_REPS ?? (process.env.BENCH_QUICK ? 3 : 9));

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
        const fn = await FunctionProcess.start(adapter, { ...project.config.timeouts, env: process.env, probe });
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

/** Runs a command to its end: wall time, the CPU of it and its descendants (they are waited for), in ms, and its stdout. */
function spawned(command, args, env = {}, cwd = root) {
  return new Promise((resolve, reject) => {
    const cpu = cpuNow();
    const began = performance.now();
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NO_COLOR: '1', ...env } });
    const out = [];
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - began;
      const after = cpuNow();
      if (code !== 0) reject(new Error(`${command} ${args.join(' ')} exited ${code}`));
      else resolve({ ms, cpu: after.functions - cpu.functions, stdout: Buffer.concat(out).toString('utf8') });
    });
  });
}

/** runProject alone (no judging, no outline), answer cache off: CPU and calls. */
async function renderOnly(project, options) {
  return measured(async () => ({ calls: (await runProject(project, options)).calls }));
}

/**
 * The transport's own floor: one bundled function started bare (no drift around it) and a bare
 * @grpc/grpc-js client, with the SDK's message types, sending it the same request `calls` times,
 * `parallel` at a time, as drift keeps several calls waiting. Returns the client's CPU per call.
 */
async function transportFloor(adapter, request, calls, parallel, drifts = false) {
  const socketDir = mkdtempSync(path.join(os.tmpdir(), 'drift-bench-grpc-'));
  const address = `unix:${path.join(socketDir, 'fn.sock')}`;
  const [program, ...args] = adapter.function.command.map((part) => part.replaceAll('{address}', address));
  const child = spawn(program, args, { cwd: adapter.function.cwd, stdio: 'ignore' });
  const Client = makeGenericClientConstructor(FunctionRunnerServiceService, 'FunctionRunnerService');
  const client = new Client(address, credentials.createInsecure(), { 'grpc.initial_reconnect_backoff_ms': 10, 'grpc.max_reconnect_backoff_ms': 50 });
  const bytes = RunFunctionRequest.encode(request).finish();
  // drift's own client (node:http2, functions/unaryCall.ts) sends the encoded bytes, as drift does.
  const own = drifts ? new FunctionClient(address) : undefined;
  const call = own
    ? () => own.run(bytes, 30_000)
    : () =>
        new Promise((resolve, reject) => client.runFunction(request, { deadline: new Date(Date.now() + 30_000) }, (error, response) => (error ? reject(error) : resolve(response))));
  try {
    for (;;) {
      try {
        await call();
        break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 20)); // not up yet
      }
    }
    for (let i = 0; i < 20; i += 1) await call(); // warm both sides
    const fnCpu = () => {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime of the function
    };
    const fnBefore = fnCpu();
    const before = process.cpuUsage();
    let sent = 0;
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (sent < calls) {
          sent += 1;
          await call();
        }
      }),
    );
    const used = process.cpuUsage(before);
    return { client: (used.user + used.system) / 1000 / calls, fn: (fnCpu() - fnBefore) / calls, bytes: bytes.length };
  } finally {
    client.close();
    own?.close();
    child.kill('SIGKILL');
    rmSync(socketDir, { recursive: true, force: true });
  }
}


const project = { ...(await loadProject(undefined, root, process.env)), cache: undefined };
const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
console.log(`machine: ${machine}; load average at start ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
console.log(`bundled set: ${project.adapters.length} providers × ${project.scenarios.length} scenarios, concurrency ${project.config.concurrency}, ${REPS} repetitions, answer cache off but where named; in-process runs under drift's V8 flags: ${driftV8Flags(process.env).join(' ') || 'none (DRIFT_TURBOFAN)'}`);
await floor(project); // warm the file cache and Python's bytecode cache
// The first full run in this process compiles what the later ones reuse (JIT, WebAssembly tiers), as every drift diff from the shell does; loading the project is not in it.
const cold = await full(project);
const drift = path.join(root, 'bin', 'drift.js');
const OWN_CPU_PRELOAD = new URL('./bench-own-cpu.mjs', import.meta.url).href;
const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'drift-bench-cache-'));
const cachedEnv = { DRIFT_CACHE_DIR: cacheDir };
const ownCpuFile = path.join(os.tmpdir(), `drift-bench-own-cpu-${process.pid}`);
const reference = await spawned(process.execPath, [drift, '--no-cache', 'diff']);
await spawned(process.execPath, [drift, 'diff'], cachedEnv); // fills the cache
const floors = [];
const fulls = [];
const bare = [];
const renders = [];
const ends = [];
const cached = [];
const answered = [];
const lists = [];
const versions = [];
const nodes = [];
let sameReport = true;
for (let i = 0; i < REPS; i += 1) {
  // Interleaved, so a slow spell of a shared machine lands on all of them.
  floors.push(await floor(project));
  fulls.push(await full(project));
  renders.push(await renderOnly(project, {}));
  bare.push(await renderOnly(project, { determinism: false, gating: false }));
  // Through NODE_OPTIONS, not an argument: drift keys its code cache by its arguments to node.
  const end = await spawned(process.execPath, [drift, '--no-cache', 'diff'], { NODE_OPTIONS: `--import=${OWN_CPU_PRELOAD}`, BENCH_OWN_CPU: ownCpuFile });
  ends.push({ ...end, driftCpu: Number(readFileSync(ownCpuFile, 'utf8')) });
  const again = await spawned(process.execPath, [drift, 'diff'], cachedEnv);
  sameReport &&= again.stdout === reference.stdout;
  cached.push(again);
  // The same with the cells gone: every request answered from the answer cache, every cell simulated again (and kept again).
  rmSync(path.join(cacheDir, 'cells'), { recursive: true, force: true });
  const answersOnly = await spawned(process.execPath, [drift, 'diff'], cachedEnv);
  sameReport &&= answersOnly.stdout === reference.stdout;
  answered.push(answersOnly);
  lists.push(await spawned(process.execPath, [drift, 'list']));
  versions.push(await spawned(process.execPath, [drift, '--version']));
  nodes.push(await spawned(process.execPath, ['-e', '0']));
}
rmSync(cacheDir, { recursive: true, force: true });
rmSync(ownCpuFile, { force: true });
const med = (runs, key) => median(runs.map((run) => (typeof key === 'function' ? key(run) : run[key])));
const total = (run) => run.driftCpu + run.functionsCpu;
const ms = (runs) => med(runs, 'ms');
const cpu = (runs) => `CPU drift ${med(runs, 'driftCpu').toFixed(0)} ms + functions ${med(runs, 'functionsCpu').toFixed(0)} ms`;
console.log(`floor  median ${ms(floors).toFixed(0)} ms wall; ${cpu(floors)} (runs: ${floors.map((run) => total(run).toFixed(0)).join(', ')} ms CPU)`);
console.log(`full   median ${ms(fulls).toFixed(0)} ms wall; ${cpu(fulls)} (runs: ${fulls.map((run) => total(run).toFixed(0)).join(', ')} ms CPU); ${fulls[0].calls} RunFunction calls`);

// Calls by purpose, each run once: the main renders (with the twin render and the start-up probes, which are first steps), the
// determinism replays, the gating ablations with the intent probes; and what the probes would cost from an empty world.
const onlyMain = (await renderOnly(project, { determinism: false, gating: false })).calls;
const withReplays = (await renderOnly(project, { gating: false })).calls;
const everything = (await renderOnly(project, {})).calls;
const probesEmpty = (await renderOnly(project, { probes: 'empty' })).calls;
console.log(
  `calls  ${everything}: main renders, twin renders and start-up probes ${onlyMain}, determinism replays ${withReplays - onlyMain}, ` +
    `gating ablations and intent probes ${everything - withReplays} (intent probes from an empty world instead: ${probesEmpty} calls in all, ${probesEmpty - everything} more)`,
);
const callsMarginal = med(renders, 'calls') - med(bare, 'calls');
const marginal = (med(renders, 'driftCpu') - med(bare, 'driftCpu')) / callsMarginal;
const marginalFn = (med(renders, 'functionsCpu') - med(bare, 'functionsCpu')) / callsMarginal;
const pairedMarginal = median(renders.map((run, i) => (run.driftCpu - bare[i].driftCpu) / (run.calls - bare[i].calls)));
console.log(
  `per call  drift's marginal CPU ${marginal.toFixed(2)} ms (paired ${pairedMarginal.toFixed(2)} ms), functions' ${marginalFn.toFixed(2)} ms: ` +
    `runProject ${med(renders, 'driftCpu').toFixed(0)} ms with determinism and gating, ${med(bare, 'driftCpu').toFixed(0)} ms without, ${callsMarginal} calls apart`,
);
console.log(`fixed  drift's CPU per full run beyond its calls: ${(med(fulls, 'driftCpu') - marginal * fulls[0].calls).toFixed(0)} ms (full ${med(fulls, 'driftCpu').toFixed(0)} ms − ${fulls[0].calls} calls × ${marginal.toFixed(2)} ms)`);
// Outlines are parsed in every full run, beside the renders: the median parse time per provider.
for (const { provider } of fulls[0].outlines) {
  const times = fulls.map((run) => run.outlines.find((outline) => outline.provider === provider).ms);
  console.log(`outline ${provider}: ${fulls[0].outlines.find((outline) => outline.provider === provider).files} files, parse median ${median(times).toFixed(1)} ms`);
}
const probe = buildRequest(buildXR(project.adapters[0], project.scenarios[0]), new Map(), undefined);
const transport = [];
for (let i = 0; i < 3; i += 1) transport.push(await transportFloor(project.adapters[0], probe, 300, project.config.concurrency));
const ownTransport = [];
for (let i = 0; i < 3; i += 1) ownTransport.push(await transportFloor(project.adapters[0], probe, 300, project.config.concurrency, true));
console.log(
  `transport  bare @grpc/grpc-js client, ${project.adapters[0].name}'s first request (${transport[0].bytes} bytes), 300 calls × 3: client ${median(transport.map((t) => t.client)).toFixed(2)} ms, function ${median(transport.map((t) => t.fn)).toFixed(2)} ms a call; ` +
    `drift's client (node:http2) the same: client ${median(ownTransport.map((t) => t.client)).toFixed(2)} ms, function ${median(ownTransport.map((t) => t.fn)).toFixed(2)} ms a call`,
);
const over = median(ends.map((end, i) => end.cpu - total(fulls[i])));
console.log(
  `CLI    drift --no-cache diff end to end median ${ms(ends).toFixed(0)} ms wall, CPU drift + functions ${med(ends, 'cpu').toFixed(0)} ms; ` +
    `in-process full run ${med(fulls, total).toFixed(0)} ms: end to end minus in-process ${over.toFixed(0)} ms CPU (paired median); ` +
    `of which drift's own ${med(ends, 'driftCpu').toFixed(0)} against ${med(fulls, 'driftCpu').toFixed(0)} ms in process (paired ${median(ends.map((end, i) => end.driftCpu - fulls[i].driftCpu)).toFixed(0)}), ` +
    `its functions' ${median(ends.map((end) => end.cpu - end.driftCpu)).toFixed(0)} against ${med(fulls, 'functionsCpu').toFixed(0)} ms (paired ${median(ends.map((end, i) => end.cpu - end.driftCpu - fulls[i].functionsCpu)).toFixed(0)})`,
);
console.log(`CLI    the first in-process full run (nothing compiled yet): ${cold.ms.toFixed(0)} ms, CPU drift ${cold.driftCpu.toFixed(0)} ms + functions ${cold.functionsCpu.toFixed(0)} ms`);
console.log(`CLI    drift diff again, unchanged tree, caches warm: median ${ms(cached).toFixed(0)} ms wall, CPU ${med(cached, 'cpu').toFixed(0)} ms (runs: ${cached.map((run) => run.cpu.toFixed(0)).join(', ')}); report ${sameReport ? 'the same' : 'DIFFERENT'} as --no-cache's`);
console.log(`CLI    the same with the cell cache emptied (answers only: every cell simulated against cached answers): median ${ms(answered).toFixed(0)} ms wall, CPU ${med(answered, 'cpu').toFixed(0)} ms`);
console.log(`CLI    drift list median ${ms(lists).toFixed(0)} ms wall, CPU ${med(lists, 'cpu').toFixed(0)} ms; drift --version CPU ${med(versions, 'cpu').toFixed(0)} ms; node -e 0 CPU ${med(nodes, 'cpu').toFixed(0)} ms`);
if (fulls.some((run) => run.findings > 0)) console.log('note: the full runs reported findings; the goldens are not current');

if (process.env.BENCH_SCALE !== '0') {
  // Sizes one after another (smallest first: drift's peak RSS is the process's peak so far), to see
  // that calls, wall and CPU grow together.
  for (const size of (process.env.BENCH_SCALE ?? '12x14,24x14,48x14').split(',')) {
    const [providers, scenarios] = size.split('x').map(Number);
    const dir = syntheticProject(root, providers, scenarios);
    try {
      const synthetic = { ...(await loadProject(undefined, dir, process.env)), cache: undefined };
      const stopSampling = childMemorySampler();
      const run = await full(synthetic);
      const childPeak = stopSampling();
      const rss = process.resourceUsage().maxRSS * 1024;
      const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
      console.log(
        `scale  ${providers} providers × ${scenarios} scenarios, concurrency ${synthetic.config.concurrency}: ${(run.ms / 1000).toFixed(1)} s, ${run.calls} RunFunction calls, ${(run.calls / (run.ms / 1000)).toFixed(0)} calls/s, ` +
          `CPU drift ${(run.driftCpu / 1000).toFixed(1)} s (${(run.driftCpu / run.calls).toFixed(2)} ms/call), functions ${(run.functionsCpu / 1000).toFixed(1)} s (${(run.functionsCpu / run.calls).toFixed(2)} ms/call), ` +
          `all ${((run.driftCpu + run.functionsCpu) / run.calls).toFixed(2)} ms/call, ` +
          `peak RSS drift ${mib(rss)}, functions ${mib(childPeak)}`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
// The isolated per-call line (its own module, scripts/bench-marginal.mjs): the marginal CPU per call with nothing else in the process.
if (process.env.BENCH_MARGINAL !== '0') await (await import('./bench-marginal.mjs')).benchMarginal(root, { reps: Math.min(REPS, 7) });
// The --changed line (its own module, scripts/bench-changed.mjs): one of 24 providers changed, against a one-provider run.
// The style line (its own module, scripts/bench-style.mjs): comparing the providers' code, on against off, outline cold.
if (process.env.BENCH_STYLE !== '0') await (await import('./bench-style.mjs')).benchStyle(root, { reps: REPS });
if (process.env.BENCH_CHANGED !== '0') await (await import('./bench-changed.mjs')).benchChanged(root, { reps: Math.min(REPS, 5) });
// The warm MCP loop and the server's V8 flags (its own module, scripts/bench-mcp.mjs): edit one provider, diff it over drift mcp.
if (process.env.BENCH_MCP !== '0') await (await import('./bench-mcp.mjs')).benchMcp(root, { calls: Math.min(REPS, 10), flagCalls: process.env.BENCH_QUICK ? 10 : 50 });
// The ablation table (its own module, scripts/bench-ablation.mjs): what each speed layer saves, turned off in pairs.
if (process.env.BENCH_ABLATION !== '0') await (await import('./bench-ablation.mjs')).benchAblation(root, { reps: Math.min(REPS, 7) });
// The page line (its own module, scripts/bench-page.mjs): the conformance page at 24 × 14, its size and its render in headless Chromium.
if (process.env.BENCH_PAGE !== '0') await (await import('./bench-page.mjs')).benchPage(root, { reps: Math.min(REPS, 5) });
console.log(`load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
