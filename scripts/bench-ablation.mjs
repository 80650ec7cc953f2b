// The ablation table of drift's benchmark (npm run bench; alone: `node scripts/bench-ablation.mjs`):
// what each speed layer saves, found by turning it off (src/util/speedLayers.ts). Three paths:
//   cold full run: everything `drift diff` does over the bundled set, every cache off, in this
//                  process (its layers switched between paired runs); and spawned as `drift diff`
//                  with the answers, cells, sources and outlines forgotten (every call made, every
//                  outline built) but drift's compiled code, validators and documents kept, for the
//                  layers a process takes at its start (the code cache, the V8 flags)
//   cached re-run: `drift diff` spawned again on an unchanged tree, caches warm
//   cold start:    `drift list` spawned
// Each repetition runs every layer's pair (on, off) back to back, the order alternating between
// repetitions; a layer's figure is the median of its pairs' differences (off − on) with their range,
// drift's own CPU (user + system) apart from its functions'. A layer earns its place when it saves at
// least 3% of its path's cost or 20 ms (issue 41). BENCH_REPS sets the repetitions (default 7).
import './bench-flags.mjs'; // first: drift's V8 flags before any of its modules loads
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client, credentials, Metadata } from '@grpc/grpc-js';
import { RunFunctionRequest, RunFunctionResponse } from '@crossplane-org/function-sdk-typescript';
import { median } from './bench-util.mjs';

/** The SDK's generated codec, in place of drift's reader and writer. */
const SDK_CODEC = { encode: (request) => RunFunctionRequest.encode(request).finish(), decode: (bytes) => RunFunctionResponse.decode(bytes) };

/** An @grpc/grpc-js channel carrying drift's bytes, in place of drift's own client over node:http2. */
function grpcChannel(UnaryError) {
  return (address, method) => {
    const client = new Client(address, credentials.createInsecure(), { 'grpc.initial_reconnect_backoff_ms': 10, 'grpc.max_reconnect_backoff_ms': 50, 'grpc.max_receive_message_length': 64 * 1024 * 1024 });
    return {
      call: (request, timeoutMs) =>
        new Promise((resolve, reject) =>
          client.makeUnaryRequest(method, (bytes) => Buffer.from(bytes), (bytes) => bytes, request, new Metadata(), { deadline: Date.now() + timeoutMs }, (error, answer) =>
            error ? reject(new UnaryError(error.code, error.details)) : resolve(answer),
          ),
        ),
      close: () => client.close(),
    };
  };
}

function ownAndChildrenCpu() {
  const own = process.cpuUsage();
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return { drift: (own.user + own.system) / 1000, functions: ((Number(fields[13]) + Number(fields[14])) * 1000) / 100 };
}

/** Runs a command to its end: wall, its own CPU (written at its exit by bench-own-cpu.mjs) and its children's. */
function spawnedCpu(root, args, env) {
  const ownFile = path.join(os.tmpdir(), `drift-ablation-own-${process.pid}`);
  const preload = new URL('./bench-own-cpu.mjs', import.meta.url).href;
  return new Promise((resolve, reject) => {
    const before = ownAndChildrenCpu();
    const began = performance.now();
    const child = spawn(process.execPath, [path.join(root, 'bin', 'drift.js'), ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, NO_COLOR: '1', NODE_OPTIONS: `--import=${preload}`, BENCH_OWN_CPU: ownFile, ...env },
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - began;
      const all = ownAndChildrenCpu().functions - before.functions;
      if (code !== 0) return reject(new Error(`drift ${args.join(' ')} exited ${code}`));
      const drift = Number(readFileSync(ownFile, 'utf8'));
      rmSync(ownFile, { force: true });
      resolve({ ms, drift, functions: all - drift, out });
    });
  });
}

/**
 * Forgets every answer, cell, source, outline and verdict: the next `drift diff` makes every call and builds
 * every outline again (a full run), with drift's compiled code, validators and parsed documents kept,
 * as after an edit that touches every provider.
 */
function forgetRuns(folder) {
  for (const name of readdirSync(folder)) {
    if (name.endsWith('.answers') || name === 'cells' || name === 'sources' || name === 'outlines' || name === 'verdicts') rmSync(path.join(folder, name), { recursive: true, force: true });
  }
}

const pct = (part, whole) => `${((100 * part) / whole).toFixed(1)}%`;

/** One table line: median and range of the pairs' differences, what the path costs with every layer on, the verdict. */
function line(path, layer, pairs) {
  const saved = pairs.map((pair) => pair.off.drift - pair.on.drift);
  const savedFn = pairs.map((pair) => pair.off.functions - pair.on.functions);
  const base = median(pairs.map((pair) => pair.on.drift));
  const m = median(saved);
  const verdict = m >= 20 || m >= 0.03 * base ? 'earns' : 'does not earn';
  const same = pairs.every((pair) => pair.same !== false) ? '' : '; REPORT DIFFERS';
  return (
    `ablation  ${path.padEnd(14)} ${layer.padEnd(20)} saves drift ${m.toFixed(0).padStart(4)} ms (${pct(m, base)} of ${base.toFixed(0)}; pairs ${Math.min(...saved).toFixed(0)}…${Math.max(...saved).toFixed(0)}), ` +
    `functions ${median(savedFn).toFixed(0)} ms: ${verdict}${same}`
  );
}

export async function benchAblation(root, { reps }) {
  const dist = (module) => import(pathToFileURL(path.join(root, 'dist', module)).href);
  const [{ loadProject }, { diffProject }, { setSpeedLayers }, { UnaryError }] = await Promise.all([
    dist('config/load.js'),
    dist('pipeline/diffRun.js'),
    dist('util/speedLayers.js'),
    dist('functions/unaryCall.js'),
  ]);
  const project = { ...(await loadProject(undefined, root, process.env)), cache: undefined };
  const inProcess = {
    codec: { codec: SDK_CODEC },
    client: { channel: grpcChannel(UnaryError) },
    treeSitterInternals: { treeSitterInternals: false },
    memo: { memo: false },
    redactScan: { redactScan: false },
  };
  const full = async (layers) => {
    setSpeedLayers(layers);
    try {
      const before = ownAndChildrenCpu();
      const result = await diffProject({ full: project, project, filters: { providers: [], scenarios: [] } });
      const after = ownAndChildrenCpu();
      return { drift: after.drift - before.drift, functions: after.functions - before.functions, report: JSON.stringify(result.findings) };
    } finally {
      setSpeedLayers({});
    }
  };
  // Spawned: the layers a process takes at its start, by name (bin/drift.js: DRIFT_SPEED_OFF, DRIFT_TURBOFAN).
  const spawnedLayers = {
    codeCache: { DRIFT_SPEED_OFF: 'codeCache' },
    scalarCache: { DRIFT_SPEED_OFF: 'scalarCache' },
    treeSitterInternals: { DRIFT_SPEED_OFF: 'treeSitterInternals' },
    memo: { DRIFT_SPEED_OFF: 'memo' },
    verdictCache: { DRIFT_SPEED_OFF: 'verdictCache' },
    'V8 flags': { DRIFT_TURBOFAN: '1' },
  };
  const coldDir = mkdtempSync(path.join(os.tmpdir(), 'drift-ablation-cold-'));
  const warmDir = mkdtempSync(path.join(os.tmpdir(), 'drift-ablation-warm-'));
  const paths = {
    'cold full run': (env) => {
      forgetRuns(coldDir);
      return spawnedCpu(root, ['diff'], { DRIFT_CACHE_DIR: coldDir, ...env });
    },
    'cached re-run': (env) => spawnedCpu(root, ['diff'], { DRIFT_CACHE_DIR: warmDir, ...env }),
    'cold start': (env) => spawnedCpu(root, ['list'], { DRIFT_CACHE_DIR: warmDir, ...env }),
  };
  try {
    // Warm-ups: the first in-process run compiles what the later ones reuse; each variant's code cache written once.
    await full({});
    for (const env of [{}, ...Object.values(spawnedLayers)]) for (const run of Object.values(paths)) await run(env);
    const pairs = {};
    const pair = async (key, i, measure) => {
      const on = async () => measure(false);
      const off = async () => measure(true);
      const [a, b] = i % 2 === 0 ? [await on(), await off()] : [await off(), await on()].reverse();
      (pairs[key] ??= []).push({ on: a, off: b, same: a.report === undefined ? undefined : a.report === b.report });
    };
    for (let i = 0; i < reps; i++) {
      for (const [layer, layers] of Object.entries(inProcess)) await pair(`in process\0${layer}`, i, (off) => full(off ? layers : {}));
      for (const [name, run] of Object.entries(paths)) {
        for (const [layer, env] of Object.entries(spawnedLayers)) {
          if (name === 'cold start' && (layer === 'treeSitterInternals' || layer === 'memo' || layer === 'verdictCache')) continue; // `drift list` neither outlines, memoizes nor judges
          await pair(`${name}\0${layer}`, i, async (off) => {
            const run_ = await run(off ? env : {});
            return { ...run_, report: name === 'cold start' ? undefined : run_.out };
          });
        }
      }
    }
    const lines = Object.entries(pairs).map(([key, list]) => line(...key.split('\0'), list));
    for (const text of lines) console.log(text);
    return lines;
  } finally {
    rmSync(coldDir, { recursive: true, force: true });
    rmSync(warmDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  console.log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), Node ${process.version}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  await benchAblation(root, { reps: Number(process.env.BENCH_REPS ?? 7) });
  console.log(`load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
}
