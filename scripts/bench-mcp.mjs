// The warm MCP loop of drift's benchmark (npm run bench; alone: `node scripts/bench-mcp.mjs`): an
// agent's loop over `drift mcp`, one edit to one provider's source, then a `diff` of that provider,
// timed from the call to its answer (wall) with the server's CPU and its functions' beside it.
// BENCH_MCP_THINK_MS (default 1000) is the agent's pause between its edit and its call.
// Two servers on two copies of the bundled project, called in turn (paired, alternated):
//   kept:     `drift mcp` as shipped, function processes kept between calls (functions/pool.ts)
//   per call: `drift mcp --keep-functions 0`, a process started for every call that renders
// and the V8 flags of the long-lived server: drift's (--no-opt --liftoff-only) against Node's
// defaults (DRIFT_TURBOFAN=1), over BENCH_MCP_CALLS calls each (default 50).
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './bench-util.mjs';

/** A copy of the bundled project, its adapters finding the repository's Python environment. */
function projectCopy(root) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'drift-bench-mcp-'));
  for (const part of ['providers', 'scenarios', 'goldens', 'drift.config.yaml']) cpSync(path.join(root, part), path.join(dir, part), { recursive: true });
  symlinkSync(path.join(root, '.venv'), path.join(dir, '.venv'));
  return dir;
}

/** /proc's CPU of a process (user + system, ms): its own, and its waited-for children's. */
function procCpu(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const tick = 1000 / 100;
  return { own: (Number(fields[11]) + Number(fields[12])) * tick, children: (Number(fields[13]) + Number(fields[14])) * tick };
}

/** The CPU of the server's live children (its function processes and their watchdogs), ms. */
function liveChildrenCpu(pid) {
  let total = 0;
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== pid) continue;
      total += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
    } catch {
      // gone
    }
  }
  return total;
}

class Server {
  constructor(root, dir, args, env) {
    this.dir = dir;
    this.child = spawn(process.execPath, [path.join(root, 'bin', 'drift.js'), 'mcp', ...args], {
      cwd: dir,
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { ...process.env, NO_COLOR: '1', DRIFT_CACHE_DIR: path.join(dir, '.cache'), ...env },
    });
    this.pending = new Map();
    this.nextId = 1;
    let buffered = '';
    this.child.stdout.on('data', (chunk) => {
      buffered += chunk;
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const message = JSON.parse(buffered.slice(0, end));
        buffered = buffered.slice(end + 1);
        this.pending.get(message.id)?.(message);
        this.pending.delete(message.id);
      }
    });
  }

  request(method, params) {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  async open() {
    await this.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'drift-bench', version: '1' } });
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  }

  cpu() {
    const { own, children } = procCpu(this.child.pid);
    return { drift: own, functions: children + liveChildrenCpu(this.child.pid) };
  }

  /**
   * One edit to the provider's source (a comment line: a new key, the same behaviour), the agent's
   * pause (`thinkMs`), then a diff of it: wall from the call to its answer, CPU from the edit on.
   */
  async editThenDiff(provider, n, thinkMs) {
    const before = this.cpu();
    appendFileSync(path.join(this.dir, 'providers', provider, 'function', 'composer.py'), `# bench edit ${n}\n`);
    await new Promise((resolve) => setTimeout(resolve, thinkMs));
    const began = performance.now();
    const answer = await this.request('tools/call', { name: 'diff', arguments: { provider } });
    const ms = performance.now() - began;
    const after = this.cpu();
    if (answer.result?.isError) throw new Error(`drift mcp diff -p ${provider}: ${answer.result.content[0].text}`);
    return { ms, drift: after.drift - before.drift, functions: after.functions - before.functions, total: answer.result.structuredContent.total };
  }

  close() {
    this.child.stdin.end();
    return new Promise((resolve) => this.child.on('close', resolve));
  }
}

const stats = (runs, key) => {
  const values = runs.map((run) => run[key]);
  return `${median(values).toFixed(0)} ms (${Math.min(...values).toFixed(0)}…${Math.max(...values).toFixed(0)})`;
};

/** Two servers called in turn, `calls` edit-then-diff calls each; returns each one's runs. */
async function paired(root, variants, calls, provider, thinkMs) {
  const servers = variants.map(({ args, env }) => new Server(root, projectCopy(root), args, env));
  try {
    for (const server of servers) await server.open();
    // A first call each: the cache filled, drift's code compiled, a process kept.
    for (const server of servers) await server.editThenDiff(provider, 0, thinkMs);
    const runs = servers.map(() => []);
    for (let n = 1; n <= calls; n++) {
      const order = n % 2 === 0 ? [0, 1] : [1, 0];
      for (const i of order) runs[i].push(await servers[i].editThenDiff(provider, n, thinkMs));
    }
    return runs;
  } finally {
    for (const server of servers) {
      await server.close();
      rmSync(server.dir, { recursive: true, force: true });
    }
  }
}

export async function benchMcp(root, { calls = 10, flagCalls = 50, provider = 'gke', thinkMs = 1000 } = {}) {
  const [kept, perCall] = await paired(root, [{ args: [] }, { args: ['--keep-functions', '0'] }], calls, provider, thinkMs);
  console.log(`mcp    edit ${provider}'s source, ${thinkMs} ms, then diff -p ${provider} (wall of the call; CPU from the edit on), ${calls} calls each, paired: processes kept: wall ${stats(kept, 'ms')}, drift CPU ${stats(kept, 'drift')}, functions ${stats(kept, 'functions')}; one per call: wall ${stats(perCall, 'ms')}, drift CPU ${stats(perCall, 'drift')}, functions ${stats(perCall, 'functions')}`);
  if (flagCalls === 0) return { kept, perCall };
  const [flagged, turbofan] = await paired(root, [{ args: [] }, { args: [], env: { DRIFT_TURBOFAN: '1' } }], flagCalls, provider, thinkMs);
  const sum = (runs, key) => runs.reduce((total, run) => total + run[key], 0);
  console.log(
    `mcp    V8 flags of the server over ${flagCalls} calls (edit, diff -p ${provider}): --no-opt --liftoff-only drift CPU ${sum(flagged, 'drift').toFixed(0)} ms in all, per call ${stats(flagged, 'drift')}, wall ${stats(flagged, 'ms')}; ` +
      `Node's defaults (TurboFan) ${sum(turbofan, 'drift').toFixed(0)} ms in all, per call ${stats(turbofan, 'drift')}, wall ${stats(turbofan, 'ms')}; ` +
      `the last 10 calls: ${sum(flagged.slice(-10), 'drift').toFixed(0)} against ${sum(turbofan.slice(-10), 'drift').toFixed(0)} ms`,
  );
  return { kept, perCall, flagged, turbofan };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  console.log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), Node ${process.version}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  await benchMcp(root, { calls: Number(process.env.BENCH_MCP_WARM ?? 10), flagCalls: Number(process.env.BENCH_MCP_CALLS ?? 50), thinkMs: Number(process.env.BENCH_MCP_THINK_MS ?? 1000) });
  console.log(`load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
}
