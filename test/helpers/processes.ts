/** Which processes are alive, read from /proc (Linux): used to prove no function process survives drift. */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ProcessInfo {
  pid: number;
  args: string;
  cwd: string;
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined; // gone, or not ours
  }
}

/** Live (non-zombie) processes, with their command line and working folder. */
export function listProcesses(): Array<ProcessInfo & { environ: string[] }> {
  const out: Array<ProcessInfo & { environ: string[] }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = read(`/proc/${entry}/stat`);
    // The state follows the parenthesised command name: "pid (comm) S ...".
    if (!stat || stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z') continue;
    let cwd = '';
    try {
      cwd = readlinkSync(`/proc/${entry}/cwd`);
    } catch {
      // not ours or gone
    }
    out.push({
      pid: Number(entry),
      args: (read(`/proc/${entry}/cmdline`) ?? '').split('\0').filter(Boolean).join(' '),
      cwd,
      environ: (read(`/proc/${entry}/environ`) ?? '').split('\0').filter(Boolean),
    });
  }
  return out;
}

/**
 * Processes running in (or naming) `folder`; with `tag`, only those whose environment carries
 * DRIFT_TEST_TAG=tag, so test files running side by side never see each other's processes.
 */
export function processesIn(folder: string, tag?: string): ProcessInfo[] {
  const inside = (p: string) => p === folder || p.startsWith(`${folder}${path.sep}`);
  return listProcesses()
    .filter((p) => p.pid !== process.pid)
    .filter((p) => inside(p.cwd) || p.args.includes(folder))
    .filter((p) => tag === undefined || p.environ.includes(`DRIFT_TEST_TAG=${tag}`))
    .map(({ pid, args, cwd }) => ({ pid, args, cwd }));
}

/** Polls until `check` returns a truthy value, or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => T | undefined | false, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

/**
 * Waits for `settling` (a process's exit, a call's answer) with a deadline: fails after `timeoutMs`
 * naming `what`, instead of measuring the time afterwards, so a slow machine fails only past the deadline.
 */
export async function within<T>(settling: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([settling, late]);
  } finally {
    clearTimeout(timer);
  }
}
