/**
 * Every printed id is closable by one command: over each mutation seed, every finding id of an
 * acceptable type (not golden, not error) that `drift diff --format json` reports, in a full run and
 * in new-provider mode, is accepted by `drift accept ID... --reason` and gone from the next run's
 * failing findings, listed instead under accepted with that reason. Every id the report prints (a
 * cause's, its consequences', golden and error ones too) is one shell word, and no two findings of one
 * report share one (issue 37): what a hint prints is what the shell passes.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/compare/findings.js';
import type { Report } from '../../src/report/model.js';
import { runDrift } from '../helpers/drift.js';
import { flattened } from '../helpers/consequences.js';
import { SEEDS, seeded } from '../helpers/mutationSeeds.js';

const SLOW = 300_000;
const copies: Array<() => void> = [];
afterAll(() => copies.forEach((remove) => remove()));

let reports = 0;
async function diff(dir: string, scenarios: string[], provider?: string): Promise<Report> {
  const output = path.join(dir, `report-${(reports += 1)}.json`);
  const args = ['diff', '--format', 'json', '--output', output, ...scenarios.flatMap((name) => ['-s', name]), ...(provider ? ['-p', provider] : [])];
  const run = await runDrift(args, dir);
  if (!existsSync(output)) throw new Error(`drift ${args.join(' ')} wrote no report (exit ${run.exitCode}):\n${run.all}`);
  return JSON.parse(readFileSync(output, 'utf8')) as Report;
}

/** What every id is spelled in: one shell word, no quoting needed (src/compare/findingId.ts). */
const SHELL_WORD = /^[A-Za-z0-9._/:{}@=+-]+$/;

/** Each id of the report, its causes' and their consequences' too, once for each finding that has it. */
function everyId(report: Report): string[] {
  const flat = flattened(report);
  const causes = [...report.findings, ...report.accepted].filter((finding) => finding.consequences !== undefined);
  return [...flat.findings, ...flat.accepted, ...causes].map((finding) => finding.id);
}

/** Ids in the shell's charset, and one finding per id: an id that two findings share accepts both. */
function expectShellWords(report: Report): void {
  const ids = everyId(report);
  expect(ids.length).toBeGreaterThan(0);
  expect(ids.filter((id) => !SHELL_WORD.test(id))).toEqual([]);
  expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
}

const acceptable = (finding: Finding) => !finding.accepted && !/^(golden|error)/.test(finding.id);
const failing = (report: Report) => report.findings.map((finding) => finding.id);

/**
 * Accepts every acceptable id of the report in one command (a cause's id among them: it accepts each of
 * its consequences), then checks the next run has none of them failing; returns the findings' own ids.
 */
async function closes(dir: string, scenarios: string[], provider?: string): Promise<string[]> {
  const before = await diff(dir, scenarios, provider);
  expectShellWords(before);
  const ids = [...new Set(before.findings.filter(acceptable).map((finding) => finding.id))].sort();
  expect(ids.length).toBeGreaterThan(0);
  const each = [...new Set(flattened(before).findings.filter(acceptable).map((finding) => finding.id))].sort();
  const reason = 'accepted by the closing test';
  const accept = await runDrift(['accept', ...ids, '--reason', reason], dir);
  expect([accept.exitCode, accept.stderr]).toEqual([0, '']);
  const after = await diff(dir, scenarios, provider);
  expectShellWords(after);
  expect([...failing(after), ...failing(flattened(after))].filter((id) => ids.includes(id) || each.includes(id))).toEqual([]);
  // Each is listed under accepted with the reason, or, pinned to the way of an accepted split, no longer differs at all.
  for (const finding of [...after.accepted, ...flattened(after).accepted].filter((one) => ids.includes(one.id) || each.includes(one.id))) expect(finding.accepted?.reason, finding.id).toContain(reason);
  expect(readFileSync(path.join(dir, 'goldens/accepted.yaml'), 'utf8')).toContain(reason);
  return each;
}

describe('every acceptable id of the mutation seeds is closed by drift accept', () => {
  for (const seed of SEEDS) {
    it(`${seed.provider}: ${seed.drift}`, async () => {
      const { dir, remove } = seeded(seed);
      copies.push(remove);
      // Full run: the provider's goldens those of the unmutated function; what is left is its golden diff alone.
      await closes(dir, seed.scenarios);
      // New-provider mode on a fresh copy: no goldens of its own; once its ids are accepted, diff -p passes.
      const fresh = seeded(seed);
      copies.push(fresh.remove);
      rmSync(path.join(fresh.dir, 'goldens', seed.provider), { recursive: true, force: true });
      const ids = await closes(fresh.dir, seed.scenarios, seed.provider);
      expect(ids).toEqual([...seed.expected].sort());
      expect(failing(await diff(fresh.dir, seed.scenarios, seed.provider))).toEqual([]);
    }, SLOW);
  }
});
