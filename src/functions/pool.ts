import { watch, type FSWatcher } from 'node:fs';
import type { FunctionProcess } from './process.js';

/** How a kept process is started again under a new key when its sources change while it waits. */
export interface Restart {
  /** The function's working folder: its sources, watched while the process is kept. */
  folder: string;
  /** The provider's key as the sources on disk make it now (undefined: it cannot be keyed). */
  rekey(): string | undefined;
  start(): Promise<FunctionProcess>;
}

interface Kept {
  key: string | undefined;
  fn: Promise<FunctionProcess | undefined>;
  idle: NodeJS.Timeout;
  watcher: FSWatcher | undefined;
}

/** A change settles for this long before the key is made again: an editor writes a file in steps. */
const SETTLE_MS = 30;

/** What a run of the function writes beside its sources, not an edit (answerKey.ts leaves them out of the key too). */
const BY_PRODUCT = /(^|[\\/])(__pycache__|\.pytest_cache|\.ruff_cache|\.mypy_cache)([\\/]|$)|\.pyc$/;

/**
 * `drift mcp`'s function processes, kept between calls: an agent's loop asks for one provider again
 * and again, and starting its Python function costs a call more than drift's own work on it. A
 * process is kept under its provider's key (functions/answerKey.ts: the function's sources, its
 * interpreter and installed packages, its adapter and environment) and taken by the next run of that
 * provider while the key is the same; one under another key is stopped and a new one started. While
 * it waits, its sources are watched: an edit makes the key again and, when it differs, the process
 * is replaced at once by one under the new key, so the agent's next call finds the edited code
 * already running. A kept process stops after `idleMs` without a run and with the session
 * (stopAll; the reaper kills it too if drift dies). One run holds a process at a time: `take` hands
 * it out of the pool, `keep` puts it back.
 */
export class FunctionPool {
  private readonly kept = new Map<string, Kept>();
  private closed = false;

  constructor(private readonly idleMs: number) {}

  /** The provider's kept process when it runs under `key`; one under another key is stopped. */
  async take(provider: string, key: string): Promise<FunctionProcess | undefined> {
    const entry = this.kept.get(provider);
    if (!entry) return undefined;
    this.forget(provider, entry);
    const fn = await entry.fn;
    if (fn && entry.key === key && fn.running) return fn;
    await fn?.stop();
    return undefined;
  }

  /** Keeps a process a run is done with, under the key it was started with, until the next run, the idle timeout or the session's end. */
  async keep(provider: string, key: string, fn: FunctionProcess, restart?: Restart): Promise<void> {
    const previous = this.kept.get(provider);
    if (previous) {
      this.forget(provider, previous);
      await (await previous.fn)?.stop();
    }
    if (this.closed || !fn.running) {
      await fn.stop();
      return;
    }
    const entry: Kept = {
      key,
      fn: Promise.resolve(fn),
      idle: setTimeout(() => {
        if (this.kept.get(provider) !== entry) return;
        this.forget(provider, entry);
        void entry.fn.then((process) => process?.stop());
      }, this.idleMs),
      watcher: undefined,
    };
    // An idle process keeps no session alive: the server ends when its client does.
    entry.idle.unref();
    if (restart) entry.watcher = this.watchSources(provider, entry, restart);
    this.kept.set(provider, entry);
  }

  /** The providers whose processes are kept, for tests and the bench. */
  get providers(): string[] {
    return [...this.kept.keys()].sort();
  }

  /** The id of the process kept for `provider` (once a restart under way has started it), for tests and the bench. */
  async pid(provider: string): Promise<number | undefined> {
    return (await this.kept.get(provider)?.fn)?.pid;
  }

  /** Stops every kept process; later `keep`s stop theirs at once. */
  async stopAll(): Promise<void> {
    this.closed = true;
    const entries = [...this.kept.entries()];
    for (const [provider, entry] of entries) this.forget(provider, entry);
    await Promise.all(entries.map(async ([, entry]) => (await entry.fn)?.stop()));
  }

  private forget(provider: string, entry: Kept): void {
    if (this.kept.get(provider) === entry) this.kept.delete(provider);
    clearTimeout(entry.idle);
    entry.watcher?.close();
    entry.watcher = undefined;
  }

  /**
   * Replaces the kept process when an edit changes the key: the old one stopped, a new one started
   * under the new key (none when the tree cannot be keyed, or the new code will not start: the next
   * run then starts it and reports why). Unwatchable (no such folder, no recursive watch): the next
   * run finds the new key and starts the process then.
   */
  private watchSources(provider: string, entry: Kept, restart: Restart): FSWatcher | undefined {
    let settle: NodeJS.Timeout | undefined;
    const rekey = () => {
      if (this.kept.get(provider) !== entry) return;
      const key = restart.rekey();
      if (key === entry.key) return;
      const old = entry.fn;
      entry.key = key;
      entry.fn = (async () => {
        void old.then((process) => process?.stop());
        if (key === undefined) return undefined;
        try {
          return await restart.start();
        } catch {
          return undefined;
        }
      })();
    };
    try {
      const watcher = watch(restart.folder, { recursive: true, persistent: false }, (_event, file) => {
        if (file && BY_PRODUCT.test(String(file))) return;
        clearTimeout(settle);
        settle = setTimeout(rekey, SETTLE_MS);
        settle.unref();
      });
      watcher.on('error', () => watcher.close());
      return watcher;
    } catch {
      return undefined;
    }
  }
}
