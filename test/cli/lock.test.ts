/**
 * Conventions discovered, then locked, through the built CLI on a copy of the project: a locked
 * convention holds against a majority of the bundled providers seeding the same deviant change;
 * without the lock, the split (3 of 5) or the new majority (4 of 5) is what drift shows.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDrift } from '../helpers/drift.js';
import { copyProject, mutate, replaceExactly, type ProjectCopy } from '../helpers/project.js';

const SLOW = 400_000;

interface JsonReport {
  findings: Array<{ id: string; type: string; class: string; provider?: string; scenario?: string; subject: string; facet?: string }>;
  candidates: Array<{ facet: string; subject: string; value: string }>;
}

async function diff(dir: string): Promise<JsonReport & { exitCode: number }> {
  const run = await runDrift(['diff', '-f', 'json'], dir);
  expect(run.exitCode, run.stderr).toBeLessThan(2);
  return { ...(JSON.parse(run.stdout) as JsonReport), exitCode: run.exitCode };
}

const onLabels = (report: JsonReport) => report.findings.filter((finding) => finding.facet === 'labels' && finding.subject === 'node-pool');
const GPU_LABEL = 'labels["modelplane.ai/gpu"] = pool["gpu"]["type"]';
const seed = (dir: string, provider: string) => mutate(dir, provider, 'function/composer.py', (text) => replaceExactly(text, GPU_LABEL, 'labels["modelplane.ai/accelerator"] = pool["gpu"]["type"]'));

describe('drift lock', () => {
  let project: ProjectCopy;
  const conventions = () => path.join(project.dir, 'goldens/conventions.yaml');
  beforeAll(() => {
    project = copyProject({ prefix: 'drift-lock-' });
  });
  afterAll(() => project.remove());

  it('refuses what is not one candidate convention, writing nothing', async () => {
    const ambiguous = await runDrift(['lock', 'labels', '--reason', 'pools are found by label'], project.dir);
    expect(ambiguous.exitCode).toBe(2);
    expect(ambiguous.stderr).toContain('--subject');
    const notCandidate = await runDrift(['lock', 'no-such-facet', '--subject', 'node-pool', '--reason', 'never'], project.dir);
    expect(notCandidate.exitCode).toBe(2);
    expect(notCandidate.stderr).toContain('is not a candidate convention');
    const underCI = await runDrift(['lock', 'labels', '--subject', 'node-pool', '--reason', 'never under CI'], project.dir, { CI: 'true' });
    expect(underCI.exitCode).toBe(2);
    expect(existsSync(conventions())).toBe(false);
  });

  it('locks a candidate, and every provider of a majority seeding one deviant change is flagged contract', { timeout: SLOW }, async () => {
    const clean = await diff(project.dir);
    expect(clean.findings).toEqual([]);
    expect(clean.candidates).toContainEqual({ facet: 'labels', subject: 'node-pool', value: '[modelplane.ai/gpu, modelplane.ai/pool]' });

    const lock = await runDrift(['lock', 'labels', '--subject', 'node-pool', '--reason', 'Schedulers find GPU pools by these labels.'], project.dir);
    expect(lock.exitCode, lock.stderr).toBe(0);
    expect(lock.stdout).toContain('written providers/CONTRACT.md');
    expect(readFileSync(conventions(), 'utf8')).toContain('Schedulers find GPU pools by these labels.');
    expect(readFileSync(path.join(project.dir, 'providers/CONTRACT.md'), 'utf8')).toContain('Schedulers find GPU pools by these labels.');
    const twice = await runDrift(['lock', 'labels', '--subject', 'node-pool', '--reason', 'again'], project.dir);
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toContain('already locked by entry 1');
    const locked = await diff(project.dir);
    expect(locked.findings).toEqual([]);
    expect(locked.exitCode).toBe(0);

    // A second lock appends: the first entry's bytes, comments included, stay as they were.
    const first = readFileSync(conventions(), 'utf8');
    writeFileSync(conventions(), first.replace('locked:\n', '# a reviewer\'s note\nlocked:\n'));
    const noted = readFileSync(conventions(), 'utf8');
    expect((await runDrift(['lock', 'readers', '--subject', 'kubeconfig', '--reason', 'Both ProviderConfigs read the one kubeconfig.'], project.dir)).exitCode).toBe(0);
    expect(readFileSync(conventions(), 'utf8').startsWith(noted)).toBe(true);
    expect((await runDrift(['unlock', 'readers', '--subject', 'kubeconfig'], project.dir)).exitCode).toBe(0);
    expect(readFileSync(conventions(), 'utf8')).toBe(noted);

    // The same deviant change in three of the five providers: a majority, each one flagged.
    for (const provider of ['gke', 'nebius', 'vultr']) seed(project.dir, provider);
    const three = await diff(project.dir);
    const flagged = onLabels(three).filter((finding) => finding.type === 'locked');
    expect(flagged.map((finding) => finding.id).sort()).toEqual(['locked:labels:node-pool:gke', 'locked:labels:node-pool:nebius', 'locked:labels:node-pool:vultr']);
    expect(flagged.every((finding) => finding.class === 'contract')).toBe(true);
    // Nothing else about the labels: the lock decides, not the vote.
    expect(onLabels(three).filter((finding) => finding.type !== 'locked')).toEqual([]);

    // Four of five: still every one of them.
    seed(project.dir, 'aks');
    const four = await diff(project.dir);
    expect(onLabels(four).map((finding) => finding.id).sort()).toEqual(['locked:labels:node-pool:aks', 'locked:labels:node-pool:gke', 'locked:labels:node-pool:nebius', 'locked:labels:node-pool:vultr']);

    // Without the lock, the new majority wins: eks, which did not change, is its outlier.
    const unlock = await runDrift(['unlock', 'labels', '--subject', 'node-pool'], project.dir);
    expect(unlock.exitCode, unlock.stderr).toBe(0);
    expect(readFileSync(conventions(), 'utf8')).not.toContain('node-pool');
    const majority = onLabels(await diff(project.dir));
    expect(majority.length).toBeGreaterThan(0);
    expect(new Set(majority.map((finding) => `${finding.type} ${finding.provider}`))).toEqual(new Set(['divergence eks']));

    // And three of five, unlocked, is a split: nobody is blamed.
    mutate(project.dir, 'aks', 'function/composer.py', (text) => replaceExactly(text, 'labels["modelplane.ai/accelerator"] = pool["gpu"]["type"]', GPU_LABEL));
    const split = onLabels(await diff(project.dir));
    expect(split.length).toBeGreaterThan(0);
    expect(split.every((finding) => finding.type === 'split' && finding.provider === undefined)).toBe(true);

    const again = await runDrift(['unlock', 'labels', '--subject', 'node-pool'], project.dir);
    expect(again.exitCode).toBe(2);
  });
});
