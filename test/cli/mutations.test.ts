/**
 * The mutation suite: seeded drifts in each of the five bundled providers, through the built CLI.
 * Each seed is judged twice on a fresh copy of the project:
 *   - a full run (`drift diff`), the seeded provider's goldens still those of the unmutated function:
 *     the run fails and nothing blames another provider;
 *   - new-provider mode: the seeded provider's goldens deleted, `drift diff -p P`, so only what it
 *     does against the four others and the contract can show: the findings are exactly the ones the
 *     table expects (beside `golden-missing`), and nothing blames another provider; the MCP server's
 *     diff and explain (its tools, in this process) return the same findings with their places.
 * Each seed renders only the scenarios that show it.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/compare/findings.js';
import type { Report } from '../../src/report/model.js';
import { driftTools, runDrift, type DriftRun } from '../helpers/drift.js';
import { flattened } from '../helpers/consequences.js';
import { PROVIDERS, SEEDS, seeded, seededFile, type MutationSeed } from '../helpers/mutationSeeds.js';
import { atEdit, editPlace } from '../helpers/editPlace.js';
import { copyProject, REPO } from '../helpers/project.js';

const SLOW = 300_000;
const copies: Array<() => void> = [];
afterAll(() => copies.forEach((remove) => remove()));


const ids = (findings: Finding[]) => findings.map((finding) => finding.id).sort();

let reports = 0;

/** `drift diff --format json` in `dir` over `scenarios` (and `-p` when given), with its parsed report. */
async function diff(dir: string, scenarios: string[], provider?: string): Promise<DriftRun & { report: Report }> {
  const output = path.join(dir, `report-${(reports += 1)}.json`);
  const args = ['diff', '--format', 'json', '--output', output, ...scenarios.flatMap((name) => ['-s', name]), ...(provider ? ['-p', provider] : [])];
  const run = await runDrift(args, dir);
  if (!existsSync(output)) throw new Error(`drift ${args.join(' ')} wrote no report (exit ${run.exitCode}):\n${run.all}`);
  // What each seed is found as, one finding each: how they group into causes is pinned by test/cli/causes.test.ts.
  return { ...run, report: flattened(JSON.parse(readFileSync(output, 'utf8')) as Report) };
}

/** A copy of the project with the seed applied to its provider, removed after the suite. */
function seededCopy(seed: MutationSeed): string {
  const { dir, remove } = seeded(seed);
  copies.push(remove);
  return dir;
}

/** Findings that blame a provider other than `provider` (splits blame nobody). */
const blamingOthers = (report: Report, provider: string) => report.findings.filter((finding) => finding.provider !== undefined && finding.provider !== provider);

/** Findings that blame a provider and can say where (a golden diff is the skeleton's, an error the run's). */
const blaming = (report: Report) => report.findings.filter((finding) => finding.provider !== undefined && finding.type !== 'golden' && finding.type !== 'error');

/** Per seed: whether every finding blaming its provider points at the edit (±3 lines, or inside a def it changed). */
const atTheEdit = new Map<string, boolean>();

describe('the mutation suite over the five bundled providers', () => {
  it('spreads at least 15 seeds over all five, each provider at least twice, and at least 12 name their provider without goldens', () => {
    expect(SEEDS.length).toBeGreaterThanOrEqual(15);
    for (const provider of PROVIDERS) expect(SEEDS.filter((seed) => seed.provider === provider).length, provider).toBeGreaterThanOrEqual(2);
    const naming = SEEDS.filter((seed) => seed.expected.some((id) => id.endsWith(`:${seed.provider}`) || id.includes(`:${seed.provider}:`)));
    expect(naming.length).toBeGreaterThanOrEqual(12);
    // Every seed names its provider today; one that cannot would state the split it expects instead.
    expect(naming.map((seed) => `${seed.provider}: ${seed.drift}`)).toEqual(SEEDS.map((seed) => `${seed.provider}: ${seed.drift}`));
  });

  it('the unmodified five: drift diff exits 0 with no findings', async () => {
    const { exitCode, report, all } = await diff(copyOf(), []);
    expect(report.findings, all).toEqual([]);
    expect(exitCode).toBe(0);
    expect(report.providers).toEqual([...PROVIDERS]);
  }, SLOW);

  for (const seed of SEEDS) {
    it(`${seed.provider}: ${seed.drift}`, async () => {
      const dir = seededCopy(seed);

      // A full run, the provider's goldens from the unmutated function: caught, and only the seeded provider is blamed.
      const full = await diff(dir, seed.scenarios);
      expect(full.exitCode, full.all).toBe(1);
      expect(full.report.findings.filter((finding) => finding.provider === seed.provider).length).toBeGreaterThan(0);
      expect(blamingOthers(full.report, seed.provider)).toEqual([]);
      for (const id of seed.full ?? []) expect(ids(full.report.findings), full.all).toContain(id);
      // Every finding that blames a provider says where.
      expect(blaming(full.report).filter((finding) => !finding.where?.length).map((finding) => finding.id)).toEqual([]);

      // New-provider mode: no goldens of its own, judged against the four others and the contract.
      rmSync(path.join(dir, 'goldens', seed.provider), { recursive: true, force: true });
      const fresh = await diff(dir, seed.scenarios, seed.provider);
      expect(fresh.exitCode, fresh.all).toBe(1);
      // No golden at all (its outline's neither): a new provider, told by a note, not by findings.
      expect(fresh.report.findings.filter((finding) => finding.id.startsWith('golden-missing:'))).toEqual([]);
      expect(fresh.report.notes).toEqual([expect.stringContaining(`new provider: goldens not written yet (${seed.provider})`)]);
      expect(ids(fresh.report.findings), fresh.all).toEqual([...seed.expected].sort());
      expect(blamingOthers(fresh.report, seed.provider)).toEqual([]);
      expect(blaming(fresh.report).filter((finding) => !finding.where?.length).map((finding) => finding.id)).toEqual([]);
      // A split blames nobody but places each of its ways.
      for (const split of fresh.report.findings.filter((finding) => finding.type === 'split')) expect(split.where?.length, split.id).toBeGreaterThan(0);
      const composer = seededFile(seed);
      const edit = editPlace(readFileSync(path.join(REPO, composer), 'utf8'), readFileSync(path.join(dir, composer), 'utf8'));
      const lineIn = (where: string | undefined) => (where?.startsWith(`${composer}:`) ? Number(where.slice(composer.length + 1)) : undefined);
      atTheEdit.set(`${seed.provider}: ${seed.drift}`, blaming(fresh.report).every((finding) => {
        const line = lineIn(finding.where?.[0]);
        return line !== undefined && atEdit(edit, line);
      }));
      for (const id of seed.expected) {
        const finding = fresh.report.findings.find((f) => f.id === id)!;
        if (finding.type === 'split') expect(finding.provider).toBeUndefined();
        else expect(finding.provider).toBe(seed.provider);
      }

      // The MCP server's judge, on the same tree: diff's first page holds every seeded finding, each
      // blaming the provider with `where` in its seeded source; explain places it there and places the
      // convention in another provider's code.
      const tools = await driftTools(dir);
      const page = await tools.diff({ provider: seed.provider, scenario: seed.scenarios });
      const items = page.items.flatMap((item) => item.consequences ?? [item]);
      expect(items.map((finding) => finding.id).sort()).toEqual([...seed.expected].sort());
      const source = `providers/${seed.provider}/function/`;
      for (const finding of items.filter((item) => item.type !== 'split')) {
        expect(finding.where?.[0], finding.id).toMatch(new RegExp(`^${source}\\w+\\.py:\\d+$`));
        const explained = await tools.explain({ id: finding.id });
        expect(explained.where, finding.id).toMatchObject({ provider: seed.provider, file: finding.where![0]!.replace(/:\d+$/, '') });
        // A divergence's convention is followed somewhere else; a rule has no way to show.
        const elsewhere = explained.ways.flatMap((way) => (way.place && way.place.provider !== seed.provider ? [way.place] : []));
        if (finding.type === 'divergence') expect(elsewhere.length, `${finding.id}: a place in another provider that follows the convention`).toBeGreaterThan(0);
      }
    }, SLOW);
  }

  it('points at the edit: every blaming finding of at least all seeds but one lies within 3 lines of the edit or inside the def it changed', () => {
    // Run after the seeds (one file runs its tests in order); a filtered run that skipped them says nothing.
    if (atTheEdit.size < SEEDS.length) return;
    const missed = [...atTheEdit].filter(([, at]) => !at).map(([seed]) => seed);
    // Known: a requirement made without its namespace leaves the identity entry unpublished, placed at the status writer, not at the requirement.
    expect(missed.length, missed.join('; ')).toBeLessThanOrEqual(1);
  });
});

function copyOf(): string {
  const { dir, remove } = copyProject({ prefix: 'drift-mutation-plain-' });
  copies.push(remove);
  return dir;
}
