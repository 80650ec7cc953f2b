/**
 * Tool calls that render: one at a time per provider (two renders of one provider would race on its
 * function and, for update, its goldens), each within a deadline past which its functions are stopped.
 */
import { stopAll } from '../functions/reaper.js';
import { DriftError } from '../errors.js';

export class ProviderQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `work` once every earlier call holding any of `providers` is done. */
  async run<T>(providers: readonly string[], work: () => Promise<T>): Promise<T> {
    const names = [...new Set(providers)].sort();
    const before = names.map((name) => this.tails.get(name) ?? Promise.resolve());
    const done = Promise.allSettled(before).then(work);
    const settled = done.catch(() => undefined);
    for (const name of names) this.tails.set(name, settled);
    try {
      return await done;
    } finally {
      for (const name of names) if (this.tails.get(name) === settled) this.tails.delete(name);
    }
  }
}

/**
 * `work`'s answer, or an error once `ms` have passed; then every function drift runs is stopped
 * (the pipeline takes no abort signal, so stopping the processes is what ends the render; a call
 * of another provider running at that moment ends with an error too, and says so).
 */
export async function withDeadline<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      stopAll();
      reject(new DriftError(`${what} took longer than ${Math.round(ms / 1000)} s, so its functions were stopped: narrow it (one scenario), or start drift mcp with a longer --deadline`));
    }, ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
