import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa, type ResultPromise } from 'execa';
import type { RunFunctionRequest, RunFunctionResponse } from '@crossplane-org/function-sdk-typescript';
import type { Adapter } from '../config/types.js';
import { DriftError } from '../errors.js';
import { CallError, FunctionClient } from './client.js';
import { track, untrack } from './reaper.js';

const TAIL_BYTES = 4096;
const STOP_GRACE_MS = 2000;
const SOCKET_POLL_MS = 5;
const MAX_PROBE_PAUSE_MS = 50;

export interface StartOptions {
  startMs: number;
  callMs: number;
  /** A real request: the function is ready only once it answers one. */
  probe: RunFunctionRequest;
}

/** Raised when a function process will not come up; carries the tail of what it printed. */
export class StartError extends DriftError {}

/** A running provider function: one process, reused for every call of the run. */
export class FunctionProcess {
  private tail = '';
  private exit: { code: number | undefined; signal: string | undefined } | undefined;
  private readonly exited: Promise<void>;
  calls = 0;

  private constructor(
    readonly adapter: Adapter,
    readonly address: string,
    private readonly socketDir: string,
    private readonly child: ResultPromise,
    private readonly client: FunctionClient,
    private readonly callMs: number,
  ) {
    const keep = (chunk: Buffer) => {
      this.tail = (this.tail + chunk.toString('utf8')).slice(-TAIL_BYTES);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exited = child.then(
      (result) => {
        this.exit = { code: result.exitCode, signal: result.signal };
      },
      () => {
        this.exit = { code: undefined, signal: undefined };
      },
    );
  }

  static async start(adapter: Adapter, options: StartOptions): Promise<FunctionProcess> {
    const socketDir = mkdtempSync(path.join(tmpdir(), 'drift-'));
    const address = `unix:${path.join(socketDir, `${adapter.name}.sock`)}`;
    const [program, ...args] = adapter.function.command.map((part) => part.replaceAll('{address}', address));
    let child: ResultPromise;
    try {
      child = execa(program!, args, {
        cwd: adapter.function.cwd,
        env: { ...process.env, ...adapter.function.env, PYTHONUNBUFFERED: '1' },
        stdin: 'ignore',
        buffer: false,
        reject: false,
        // Its own process group, so wrappers (uv run, shell scripts) die with their children.
        detached: true,
        cleanup: true,
      });
    } catch (error) {
      rmSync(socketDir, { recursive: true, force: true });
      throw new StartError(`${adapter.name}: could not run ${program}: ${(error as Error).message} (check function.command in ${adapter.file})`);
    }
    track(child);
    const fn = new FunctionProcess(adapter, address, socketDir, child, new FunctionClient(address), options.callMs);
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
        await this.client.run(probe, Math.min(callMs, Math.max(deadline - Date.now(), 1)));
        return;
      } catch (error) {
        if (!(error instanceof CallError) || !error.unavailable) return; // it answered, even if badly: it is up
        lastError = error.message;
      }
      await Promise.race([sleep(pause), this.exited]);
      pause = Math.min(pause * 2, MAX_PROBE_PAUSE_MS);
    }
    await this.stop();
    const exit = this.exitDescription();
    const how = exit ? `exited (${exit}) before answering a call` : `did not answer a call within ${startMs} ms (${lastError})`;
    throw new StartError(`${this.adapter.name}: the function ${how}. Command: ${this.adapter.function.command.join(' ').replaceAll('{address}', this.address)}${this.describeTail()}`);
  }

  async call(request: RunFunctionRequest): Promise<RunFunctionResponse> {
    if (this.exit) throw new DriftError(`the function process has exited (${this.exitDescription()})${this.describeTail()}`);
    this.calls += 1;
    try {
      return await this.client.run(request, this.callMs);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await Promise.race([this.exited, sleep(50, undefined, { ref: false })]); // give a crashing process a moment to say why
      const exit = this.exitDescription();
      const died = exit ? ` The process exited (${exit}).` : '';
      throw new DriftError(`${message}.${died}${this.describeTail()}`);
    }
  }

  private exitDescription(): string | undefined {
    if (!this.exit) return undefined;
    return this.exit.signal ?? `code ${this.exit.code ?? 'unknown'}`;
  }

  describeTail(): string {
    const tail = this.tail.trim();
    return tail ? `\n  output (last lines):\n${tail.split('\n').slice(-12).map((line) => `    ${line}`).join('\n')}` : '';
  }

  async stop(): Promise<void> {
    this.client.close();
    if (!this.exit && this.child.pid !== undefined) {
      signalGroup(this.child.pid, 'SIGTERM');
      const stopped = await Promise.race([this.exited.then(() => true), sleep(STOP_GRACE_MS, undefined, { ref: false }).then(() => false)]);
      if (!stopped) signalGroup(this.child.pid, 'SIGKILL');
      await this.exited;
    }
    untrack(this.child);
    rmSync(this.socketDir, { recursive: true, force: true });
  }
}

export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}
