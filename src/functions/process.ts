import type { Environment } from '../util/envVars.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, realpathSync, rmSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunFunctionResponse } from '@crossplane-org/function-sdk-typescript';
import type { Adapter } from '../config/types.js';
import { DriftError } from '../errors.js';
import type { MachinePaths } from '../util/redact.js';
import { resolvedProgram } from './answerKey.js';
import { GrpcStatus } from './grpcStatus.js';
import { CallError, FunctionClient, type OutgoingRequest } from './client.js';
import { encodeRequest } from './encode.js';
import { functionEnv } from './functionEnv.js';
import { pauseBeforeFirstSpawn, track, untrack } from './reaper.js';
import { startWatchdog, stopWatchdog } from './watchdog.js';

const TAIL_BYTES = 4096;
const STOP_GRACE_MS = 2000;
const SOCKET_POLL_MS = 5;
const MAX_PROBE_PAUSE_MS = 50;

export interface StartOptions {
  startMs: number;
  callMs: number;
  /** A real request, or its wire bytes: the function is ready only once it answers one. */
  probe: OutgoingRequest;
  /** The environment drift runs in: the function gets what functionEnv picks of it. */
  env: Environment;
}

/** Raised when a function process will not come up; carries the tail of what it printed. */
export class StartError extends DriftError {}

/** How a child process ended: an exit code or signal, or a failure to start it at all (ENOENT, EACCES). */
interface Exit {
  code: number | undefined;
  signal: string | undefined;
  /** Set when the program could not be spawned: the error code (ENOENT) and the system's message. */
  spawnError?: { code: string; message: string };
}

const SPAWN_HINTS: Readonly<Record<string, string>> = {
  ENOENT: 'no such program or file',
  EACCES: 'permission denied: is it executable?',
  ENOTDIR: 'a folder on its path is a file',
};

/** A running provider function: one process, reused for every call of the run. */
export class FunctionProcess {
  private tail = '';
  private exit: Exit | undefined;
  private readonly exited: Promise<void>;
  calls = 0;
  /** The probe's answer: the run's first request that the answer cache could not answer. */
  probed: { request: OutgoingRequest; response: RunFunctionResponse } | undefined;
  /**
   * The probe when it ran out of its call deadline: the process is up but hangs on it. The same
   * request sent again fails at once with that error, so a hung function is reported after one
   * call deadline, not after the probe's and then the first step's.
   */
  private timedOutProbe: { bytes: Uint8Array; message: string } | undefined;

  private constructor(
    readonly adapter: Adapter,
    readonly address: string,
    private readonly socketDir: string,
    private readonly child: ChildProcess,
    private readonly client: FunctionClient,
    private readonly callMs: number,
    private readonly watchdog: ChildProcess | undefined,
  ) {
    const keep = (chunk: Buffer) => {
      this.tail = (this.tail + chunk.toString('utf8')).slice(-TAIL_BYTES);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    // Settled once the process has exited and its output is read to the end. A program that cannot
    // be spawned (ENOENT, EACCES) emits an error with its code first, then closes.
    let spawnError: Exit['spawnError'];
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (child.pid === undefined && typeof error.code === 'string') spawnError = { code: error.code, message: this.scrub(error.message) };
    });
    this.exited = new Promise((resolve) => {
      child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
        this.exit = spawnError ? { code: undefined, signal: undefined, spawnError } : { code: code ?? undefined, signal: signal ?? undefined };
        resolve();
      });
    });
  }

  static async start(adapter: Adapter, options: StartOptions): Promise<FunctionProcess> {
    await pauseBeforeFirstSpawn();
    const socketDir = mkdtempSync(path.join(tmpdir(), 'drift-'));
    const address = `unix:${path.join(socketDir, `${adapter.name}.sock`)}`;
    const [program, ...args] = adapter.function.command.map((part) => part.replaceAll('{address}', address));
    let child: ChildProcess;
    try {
      // node:child_process, not execa: execa's import and option handling cost more than a whole
      // step of the run, and the reaper (reaper.ts) already stops every function drift started.
      child = spawn(program!, args, {
        cwd: adapter.function.cwd,
        env: functionEnv(adapter, options.env),
        stdio: ['ignore', 'pipe', 'pipe'],
        // Its own process group, so wrappers (uv run, shell scripts) die with their children.
        detached: true,
      });
    } catch (error) {
      rmSync(socketDir, { recursive: true, force: true });
      const message = (error as Error).message.replaceAll(address, '{address}');
      throw new StartError(`${adapter.name}: could not run ${program}: ${message}; check function.command in ${adapter.file}`);
    }
    // Drift's exit and signal handlers stop it on every ending but SIGKILL; the watchdog covers that.
    const watchdog = child.pid === undefined ? undefined : startWatchdog(child.pid, socketDir, options.env.PATH);
    track(child, socketDir, watchdog);
    const fn = new FunctionProcess(adapter, address, socketDir, child, new FunctionClient(address), options.callMs, watchdog);
    await fn.waitReady(options);
    return fn;
  }

  private async waitReady({ startMs, callMs, probe }: StartOptions): Promise<void> {
    const deadline = Date.now() + startMs;
    let lastError = 'no answer yet';
    // The socket file appears once the server binds; watching for it costs nothing, while a call
    // before it would send gRPC into its reconnect backoff.
    const socket = this.address.slice('unix:'.length);
    while (!existsSync(socket) && !this.exit && Date.now() < deadline) await Promise.race([sleep(SOCKET_POLL_MS), this.exited]);
    let pause = SOCKET_POLL_MS;
    while (Date.now() < deadline) {
      if (this.exit) break;
      try {
        const response = await this.client.run(probe, Math.min(callMs, Math.max(deadline - Date.now(), 1)));
        this.calls += 1;
        this.probed = { request: probe, response };
        return;
      } catch (error) {
        if (error instanceof CallError && error.code === GrpcStatus.DEADLINE_EXCEEDED) {
          this.calls += 1;
          this.timedOutProbe = { bytes: probe instanceof Uint8Array ? probe : encodeRequest(probe), message: error.message };
          return;
        }
        if (!(error instanceof CallError) || !error.unavailable) return; // it answered, even if badly: it is up
        lastError = error.message;
      }
      await Promise.race([sleep(pause), this.exited]);
      pause = Math.min(pause * 2, MAX_PROBE_PAUSE_MS);
    }
    // How it ended, read before stop(): once drift stops it, it has always "exited (SIGTERM)".
    const spawnError = this.exit?.spawnError;
    const exit = this.exitDescription();
    await this.stop();
    if (spawnError) throw new StartError(this.spawnFailure(spawnError));
    const how = exit ? `exited (${exit}) before answering a call` : `did not answer a call within ${startMs} ms (${this.scrub(lastError)})`;
    throw new StartError(`${this.adapter.name}: the function ${how}. Command: ${this.commandLine()}${this.describeTail()}`);
  }

  /** The command as the adapter wrote it: `{address}` stays, so the message is the same every run. */
  private commandLine(): string {
    return this.adapter.function.command.join(' ');
  }

  /** Text with this run's random socket path replaced, so reports are byte-identical across runs. */
  private scrub(text: string): string {
    const socket = this.address.slice('unix:'.length);
    return text.replaceAll(this.address, '{address}').replaceAll(socket, '{socket}').replaceAll(this.socketDir, '{socket folder}');
  }

  private spawnFailure(error: { code: string; message: string }): string {
    const { name, file, function: fn } = this.adapter;
    const program = fn.command[0]!;
    // Node names the program even when it is the working folder that is missing.
    if (!isFolder(fn.cwd)) return `${name}: could not run ${program}: ${error.code} (its working folder ${fn.cwd} does not exist); check function.cwd in ${file}`;
    return `${name}: could not run ${program}: ${error.code} (${SPAWN_HINTS[error.code] ?? error.message}); check function.command in ${file}. Command: ${this.commandLine()}`;
  }

  async call(request: OutgoingRequest): Promise<RunFunctionResponse> {
    if (this.exit) throw new DriftError(`the function process has exited (${this.exitDescription()})${this.describeTail()}`);
    if (this.timedOutProbe && request instanceof Uint8Array && Buffer.compare(request, this.timedOutProbe.bytes) === 0) {
      throw new DriftError(`${this.scrub(this.timedOutProbe.message)}.${this.describeTail()}`);
    }
    this.calls += 1;
    try {
      return await this.client.runPatiently(request, this.callMs);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await Promise.race([this.exited, sleep(50, undefined, { ref: false })]); // give a crashing process a moment to say why
      const exit = this.exitDescription();
      const died = exit ? ` The process exited (${exit}).` : '';
      throw new DriftError(`${this.scrub(message)}.${died}${this.describeTail()}`);
    }
  }

  private exitDescription(): string | undefined {
    if (!this.exit) return undefined;
    if (this.exit.spawnError) return `could not be started: ${this.exit.spawnError.code}`;
    return this.exit.signal ?? `code ${this.exit.code ?? 'unknown'}`;
  }

  /** The process's id (undefined when it could not be spawned). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** False once the process has exited (a kept process that died while idle is started anew, functions/pool.ts). */
  get running(): boolean {
    return this.exit === undefined;
  }

  describeTail(): string {
    const tail = this.scrub(this.tail).trim();
    return tail ? `\n  output (last lines):\n${tail.split('\n').slice(-12).map((line) => `    ${line}`).join('\n')}` : '';
  }

  async stop(): Promise<void> {
    this.client.close();
    const pid = this.child.pid;
    if (!this.exit && pid !== undefined) {
      signalGroup(pid, 'SIGTERM');
      const stopped = await Promise.race([this.exited.then(() => true), sleep(STOP_GRACE_MS, undefined, { ref: false }).then(() => false)]);
      if (!stopped) signalGroup(pid, 'SIGKILL');
      await this.exited;
    }
    // The leader is gone, but what it started in its group may not be (`sh -c "sleep 777 & exec python ..."`,
    // a child that ignores SIGTERM): kill the whole group. An empty group is simply not there any more.
    if (pid !== undefined) signalGroup(pid, 'SIGKILL');
    untrack(this.child);
    stopWatchdog(this.watchdog);
    rmSync(this.socketDir, { recursive: true, force: true });
  }
}

function isFolder(folder: string): boolean {
  try {
    return statSync(folder).isDirectory();
  } catch {
    return false;
  }
}

export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * A folder as given, each link it goes through (a checkout's .venv linking another checkout's, which
 * links the real environment) and its real path: a function may print any of them.
 */
function bothForms(folder: string): string[] {
  const forms = [folder];
  try {
    let hop = folder;
    for (let hops = 0; hops < 8 && lstatSync(hop).isSymbolicLink(); hops += 1) {
      hop = path.resolve(path.dirname(hop), readlinkSync(hop));
      forms.push(hop);
    }
    forms.push(realpathSync(folder));
  } catch {
    // A folder that is not there (yet) is shown as given.
  }
  return [...new Set(forms)];
}

/**
 * The paths of this machine that a function's output may carry and drift never publishes
 * (util/redact.ts): the project root and the folders `roots:` lists, the home and temporary folders, and the prefixes of the
 * interpreter the adapter starts: its virtual environment (`<python>`) and the base install's
 * `lib/pythonX.Y` folders, where a traceback's standard-library frames live.
 */
export function machinePaths(adapter: Pick<Adapter, 'function'>, env: Environment, root: string, roots: readonly string[] = []): MachinePaths {
  const python = new Map<string, string>();
  const fn = adapter.function;
  const program = fn.command[0] === undefined ? undefined : resolvedProgram(fn.command[0], fn.cwd, functionEnv(adapter, env));
  if (program !== undefined) {
    const prefix = path.dirname(path.dirname(program));
    const config = path.join(prefix, 'pyvenv.cfg');
    let base = prefix;
    if (existsSync(config)) {
      for (const folder of bothForms(prefix)) python.set(folder, '<python>');
      const home = /^home\s*=\s*(.+)$/m.exec(readFileSync(config, 'utf8'))?.[1]?.trim();
      base = home ? path.dirname(home) : '';
    } else {
      python.set(program, `<python>/bin/${path.basename(program)}`);
    }
    const lib = base ? path.join(base, 'lib') : '';
    const versions = lib && existsSync(lib) ? readdirSync(lib).filter((name) => /^python\d/.test(name)) : [];
    for (const version of versions) for (const folder of bothForms(path.join(lib, version))) python.set(folder, `<python>/lib/${version}`);
  }
  const tmp = [...new Set([tmpdir(), ...(env.TMPDIR ? [env.TMPDIR] : []), '/tmp'].flatMap(bothForms))];
  const outside = new Map<string, string>();
  for (const folder of roots.map((listed) => path.resolve(root, listed))) for (const form of bothForms(folder)) outside.set(form, path.relative(root, folder) || '.');
  return { root: bothForms(root), roots: outside, home: bothForms(env.HOME ?? homedir()), tmp, python };
}
