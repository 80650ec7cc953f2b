/**
 * The bounds of docs/limits.md's input table that no CLI test reaches cheaply, each at its edge: the
 * CEL element, value, character and time budgets, one outlined source file's size, and the size of a
 * report `drift comment` reads. (The others are tested through the CLI: reliability.test.ts,
 * lifecycle.test.ts, mcpProtocol.test.ts, migrate.test.ts.)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Adapter } from '../../src/config/types.js';
import { readSources } from '../../src/outline/read.js';
import { oversizedReport, REPORT_FILE_LIMIT } from '../../src/report/artifact.js';
import { evaluateCel } from '../../src/util/cel.js';
import { MAX_CEL_RANGE_TOTAL, MAX_CEL_RESULT_CHARS, MAX_CEL_RESULT_VALUES, MAX_SOURCE_BYTES } from '../../src/util/limits.js';
import { REPO, tempDir } from '../helpers/project.js';

afterEach(() => vi.restoreAllMocks());

describe('CEL budgets', () => {
  it(`refuses range() calls creating more than ${MAX_CEL_RANGE_TOTAL} elements together, and takes the limit itself`, () => {
    expect(evaluateCel('range(1000).map(i, range(9)).size()', {})).toBe(1000n);
    expect(() => evaluateCel('range(1000).map(i, range(10)).size()', {})).toThrow(`range() calls of one expression create more than ${MAX_CEL_RANGE_TOTAL} elements together`);
  });

  it(`refuses a result of more than ${MAX_CEL_RESULT_VALUES} values or ${MAX_CEL_RESULT_CHARS} characters`, () => {
    expect(() => evaluateCel('xs', { xs: Array.from({ length: MAX_CEL_RESULT_VALUES + 1 }, () => 1) })).toThrow(`the result holds more than ${MAX_CEL_RESULT_VALUES} values`);
    expect(() => evaluateCel('s', { s: 'x'.repeat(MAX_CEL_RESULT_CHARS + 1) })).toThrow(`the result holds more than ${MAX_CEL_RESULT_CHARS} characters`);
    expect(evaluateCel('size(s)', { s: 'x'.repeat(1000) })).toBe(1000n);
  });

  it('stops an evaluation past its time budget at the next range() call', () => {
    let now = 1_000_000;
    vi.spyOn(Date, 'now').mockImplementation(() => (now += 600));
    expect(() => evaluateCel('range(3).map(i, range(2)).size()', {})).toThrow("the expression ran past drift's budget of 1000 ms");
  });
});

describe('one outlined source file', () => {
  it(`is refused past ${MAX_SOURCE_BYTES} bytes at file:1:1`, async () => {
    const { dir, remove } = tempDir('drift-limits-');
    try {
      writeFileSync(path.join(dir, 'small.py'), 'x = 1\n');
      writeFileSync(path.join(dir, 'huge.py'), `x = 1\n${'#'.repeat(MAX_SOURCE_BYTES)}\n`);
      const adapter = { name: 'acme', file: path.join(dir, 'provider.yaml'), dir, function: { command: ['python'], cwd: dir, env: {} }, source: { root: dir, include: ['small.py'] } } as unknown as Adapter;
      await expect(readSources(adapter, { depth: false })).resolves.toHaveLength(1);
      await expect(readSources({ ...adapter, source: { root: dir, include: ['*.py'] } }, { depth: false })).rejects.toThrow(/huge\.py:1:1: has \d+ bytes, more than the 2 MiB drift outlines in one source file/);
    } finally {
      remove();
    }
  });
});

describe('the report drift comment reads', () => {
  it(`is refused past ${REPORT_FILE_LIMIT} bytes, naming the file`, () => {
    expect(oversizedReport('drift-report.json', REPORT_FILE_LIMIT)).toBeUndefined();
    expect(oversizedReport('drift-report.json', REPORT_FILE_LIMIT + 1)?.message).toBe(`drift-report.json has ${REPORT_FILE_LIMIT + 1} bytes, more than the ${REPORT_FILE_LIMIT} a drift report may have: it is not a report drift wrote`);
  });
});

describe("docs/limits.md's input table", () => {
  it('names, for every bound, a test file that exists', () => {
    const text = readFileSync(path.join(REPO, 'docs/limits.md'), 'utf8');
    const table = text.slice(text.indexOf('| input | limit | error | tested in |'), text.indexOf("\nCEL's own parse-time limits"));
    const rows = table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| input') && !line.startsWith('|---'));
    expect(rows.length).toBeGreaterThanOrEqual(16);
    for (const row of rows) {
      const tested = row.split(' | ').at(-1)!.replace(/ \|$/, '');
      const files = [...tested.matchAll(/test\/[\w/.-]+\.test\.ts/g)].map((match) => match[0]);
      expect(files.length, row.slice(0, 60)).toBeGreaterThan(0);
      for (const file of files) expect(existsSync(path.join(REPO, file)), file).toBe(true);
    }
  });
});
