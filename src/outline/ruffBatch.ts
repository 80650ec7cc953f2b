import path from 'node:path';

/**
 * One ruff process per tool for every provider checked at the same moment with the same ruff, not
 * one per provider. Starting ruff (its thread pool, its configuration) is most of what checking a
 * provider's few files costs: here one `ruff check` of a bundled provider's 6 files takes ~12 ms of
 * CPU, of all 30 files ~20 ms. A run outlines every provider at once, so their requests arrive in
 * the same turn of the event loop; the batch closes at the next (setImmediate).
 *
 * Exact, not approximate: formatter.ts batches only providers whose ruff configuration lies at or
 * above their source root, so ruff resolves every file's settings from the file's own folders,
 * wherever it runs. Each provider gets the records of its own files. When the shared process fails
 * (a configuration ruff refuses, a file it cannot parse) or reports a file nobody asked for, every
 * member runs alone: the failure is named for the provider it belongs to, as without batching.
 */

/** One diagnostic of ruff's JSON output; `filename` is absolute. */
export interface RuffRecord {
  filename: string;
  code: string | null;
  message: string;
  location: { row: number; column: number };
}

/** A finished program. */
export interface Ran {
  /** Undefined when the program could not be started. */
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
  /** Why it could not be started (`spawn …/ruff EACCES`), or how a signal ended it. */
  failure?: string;
}

/** What a tool said of one provider's files: its records when it succeeded (exit 0 or 1, "found something"); `stdout` is empty when they came from a shared run. */
export interface ToolRun extends Ran {
  records: RuffRecord[];
}

/** Runs the tool once over `files` (relative to `cwd`, or absolute) from `cwd`. */
export type RunTool = (files: readonly string[], cwd: string) => Promise<Ran>;

interface Member {
  root: string;
  files: readonly string[];
  run: RunTool;
}

interface Batch {
  members: Member[];
  /** Every member's records from the shared run, once the batch has closed; undefined: each runs alone. */
  done: Promise<RuffRecord[] | undefined>;
}

/** Exit 1 is ruff's "found something"; anything else is ruff failing. */
export const succeeded = (ran: Ran): boolean => ran.exitCode === 0 || ran.exitCode === 1;

/** Open batches by scope (the environment the tool runs in) and key (the program and its arguments). */
const open = new WeakMap<object, Map<string, Batch>>();

/**
 * The tool's report on `files` (relative to `root`): from a process shared with every member that
 * asks under the same scope and key in this turn of the event loop. No `key`, or no one to share
 * with: a process of its own, from `root`, exactly as without batching.
 */
export async function batchedTool(scope: object, key: string | undefined, root: string, files: readonly string[], run: RunTool): Promise<ToolRun> {
  if (key !== undefined) {
    const records = await join(scope, key, { root, files, run });
    if (records) {
      const mine = new Set(files.map((file) => path.resolve(root, file)));
      const own = records.filter((record) => mine.has(path.resolve(record.filename)));
      // The exit code ruff gives these files alone; its output is already read into the records.
      return { exitCode: own.length > 0 ? 1 : 0, stdout: '', stderr: '', records: own };
    }
  }
  const ran = await run(files, root);
  return { ...ran, records: succeeded(ran) ? recordsOf(ran) : [] };
}

/** The records of a run that succeeded: ruff's JSON output, an empty list when it printed none. */
function recordsOf(ran: Ran): RuffRecord[] {
  return JSON.parse(ran.stdout || '[]') as RuffRecord[];
}

/** Joins the open batch of `key` (opening it, to close at the next turn of the event loop) and waits for its run. */
function join(scope: object, key: string, member: Member): Promise<RuffRecord[] | undefined> {
  const batches = open.get(scope) ?? new Map<string, Batch>();
  open.set(scope, batches);
  let batch = batches.get(key);
  if (!batch) {
    const members: Member[] = [];
    const done = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      batches.delete(key);
      return runShared(members);
    });
    batch = { members, done };
    batches.set(key, batch);
  }
  batch.members.push(member);
  return batch.done;
}

/**
 * One process for the batch's members: their records when it succeeded and reported nothing but
 * their files; undefined (each member then runs alone) when it failed, surprised, or had one member.
 */
async function runShared(members: readonly Member[]): Promise<RuffRecord[] | undefined> {
  if (members.length < 2) return undefined;
  const asked = new Set(members.flatMap((member) => member.files.map((file) => path.resolve(member.root, file))));
  const ran = await members[0]!.run([...asked].sort(), commonFolder(members.map((member) => member.root)));
  if (!succeeded(ran)) return undefined;
  const records = recordsOf(ran);
  return records.every((record) => asked.has(path.resolve(record.filename))) ? records : undefined;
}

/** The deepest folder holding every one of `folders`. */
function commonFolder(folders: readonly string[]): string {
  let common = path.resolve(folders[0]!);
  for (const folder of folders.slice(1)) {
    const resolved = path.resolve(folder);
    while (resolved !== common && !resolved.startsWith(common.endsWith(path.sep) ? common : `${common}${path.sep}`)) common = path.dirname(common);
  }
  return common;
}
