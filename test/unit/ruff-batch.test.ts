/** One ruff process per tool for providers checked at once: each still gets exactly its own report. */
import { describe, expect, it } from 'vitest';
import { batchedTool, type Ran, type RuffRecord } from '../../src/outline/ruffBatch.js';

const record = (filename: string, row = 1): RuffRecord => ({ filename, code: 'E501', message: 'Line too long', location: { row, column: 1 } });

/** A stand-in for ruff: reports a record for every file it is given (as absolute paths), unless told otherwise; logs each run. */
function fakeRuff(outcome: (absolute: readonly string[]) => Partial<Ran> & { records?: RuffRecord[] } = () => ({})) {
  const runs: Array<{ files: readonly string[]; cwd: string }> = [];
  const run = async (files: readonly string[], cwd: string): Promise<Ran> => {
    runs.push({ files, cwd });
    const absolute = files.map((file) => (file.startsWith('/') ? file : `${cwd}/${file}`));
    const { records, ...rest } = outcome(absolute);
    return { exitCode: 1, stdout: JSON.stringify(records ?? absolute.map((file) => record(file))), stderr: '', ...rest };
  };
  return { runs, run };
}

describe('batchedTool', () => {
  it('runs providers asking in the same turn as one process from their common folder, and gives each its own files', async () => {
    const ruff = fakeRuff();
    const scope = {};
    const [a, b] = await Promise.all([
      batchedTool(scope, 'ruff check', '/p/a', ['function/x.py'], ruff.run),
      batchedTool(scope, 'ruff check', '/p/b', ['function/y.py', 'tests/t.py'], ruff.run),
    ]);
    expect(ruff.runs).toEqual([{ files: ['/p/a/function/x.py', '/p/b/function/y.py', '/p/b/tests/t.py'], cwd: '/p' }]);
    expect(a.records.map((r) => r.filename)).toEqual(['/p/a/function/x.py']);
    expect(b.records.map((r) => r.filename)).toEqual(['/p/b/function/y.py', '/p/b/tests/t.py']);
  });

  it('runs a provider alone as before: its own folder, its relative paths', async () => {
    const ruff = fakeRuff();
    const only = await batchedTool({}, 'ruff check', '/p/a', ['function/x.py'], ruff.run);
    expect(ruff.runs).toEqual([{ files: ['function/x.py'], cwd: '/p/a' }]);
    expect(only.records).toHaveLength(1);
  });

  it('never shares across keys, scopes, or without a key', async () => {
    const ruff = fakeRuff();
    await Promise.all([
      batchedTool({}, 'ruff check', '/p/a', ['x.py'], ruff.run),
      batchedTool({}, 'ruff check', '/p/b', ['y.py'], ruff.run),
      batchedTool({}, undefined, '/p/c', ['z.py'], ruff.run),
    ]);
    const scope = {};
    await Promise.all([batchedTool(scope, 'ruff check', '/p/a', ['x.py'], ruff.run), batchedTool(scope, 'ruff format --check', '/p/b', ['y.py'], ruff.run)]);
    expect(ruff.runs.map((run) => run.cwd).sort()).toEqual(['/p/a', '/p/a', '/p/b', '/p/b', '/p/c']);
  });

  it('reruns every member alone when the shared run fails, so the failure is named for its own provider', async () => {
    // Fails whenever broken/ is among its files, as ruff does on a configuration it refuses.
    const ruff = fakeRuff((files) => (files.some((file) => file.startsWith('/p/broken/')) ? { exitCode: 2, stdout: '', stderr: 'error: broken' } : {}));
    const scope = {};
    const [good, broken] = await Promise.all([batchedTool(scope, 'k', '/p/good', ['x.py'], ruff.run), batchedTool(scope, 'k', '/p/broken', ['y.py'], ruff.run)]);
    expect(ruff.runs).toHaveLength(3);
    expect(good).toMatchObject({ exitCode: 1, records: [record('/p/good/x.py')] });
    expect(broken).toMatchObject({ exitCode: 2, stderr: 'error: broken', records: [] });
  });

  it('reruns alone when the shared run reports a file nobody asked for: no record is dropped unseen', async () => {
    let first = true;
    const ruff = fakeRuff(() => {
      if (!first) return {};
      first = false;
      return { records: [record('/elsewhere/z.py')] };
    });
    const scope = {};
    const [a, b] = await Promise.all([batchedTool(scope, 'k', '/p/a', ['x.py'], ruff.run), batchedTool(scope, 'k', '/p/b', ['y.py'], ruff.run)]);
    expect(ruff.runs).toHaveLength(3);
    expect(a.records).toEqual([record('/p/a/x.py')]);
    expect(b.records).toEqual([record('/p/b/y.py')]);
  });
});
