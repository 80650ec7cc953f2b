/**
 * One code cause, one finding, through the built CLI: an early return in gke's entry point, before it
 * composes its network, subnet, cluster and both ProviderConfigs, makes gke wait for its credentials
 * where no other provider does. Judged as a new provider (its goldens removed, `diff -p gke`), that one
 * line is one finding of type cause listing the five `gated-on` divergences it decides, and
 * `drift accept <cause id>` closes all five: gone from the next run, listed under accepted.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/compare/findings.js';
import type { Report } from '../../src/report/model.js';
import { runDrift } from '../helpers/drift.js';
import { copyProject, mutate, replaceExactly } from '../helpers/project.js';

const SLOW = 300_000;
const copies: Array<() => void> = [];
afterAll(() => copies.forEach((remove) => remove()));

const COMPOSER = 'providers/gke/function/composer.py';
const GATE = '        if self.provider_config is None:\n';
/** The five resources the early return withholds, by the role divergences name. */
const GATED = ['cluster', 'network', 'provider-config-helm', 'provider-config-kubernetes', 'subnet'].map((role) => `div:${role}:gated-on:gke`);

let reports = 0;
async function diff(dir: string): Promise<Report> {
  const output = path.join(dir, `report-${(reports += 1)}.json`);
  const run = await runDrift(['diff', '-p', 'gke', '-s', 'converge', '--format', 'json', '--output', output], dir);
  if (!existsSync(output)) throw new Error(`drift diff wrote no report (exit ${run.exitCode}):\n${run.all}`);
  return JSON.parse(readFileSync(output, 'utf8')) as Report;
}

const ids = (findings: readonly Finding[]) => findings.flatMap((finding) => [finding.id, ...(finding.consequences ?? []).map((one) => one.id)]);

describe('one early return, one finding', () => {
  it('lists the five findings the early return decides under one cause, and drift accept of its id closes them all', async () => {
    const { dir, remove } = copyProject({ prefix: 'drift-causes-' });
    copies.push(remove);
    mutate(dir, 'gke', 'function/composer.py', (text) => replaceExactly(text, '        self.require_credentials()\n        self.compose_network()\n', `        self.require_credentials()\n${GATE}            return\n        self.compose_network()\n`));
    rmSync(path.join(dir, 'goldens', 'gke'), { recursive: true, force: true });
    const line = readFileSync(path.join(dir, COMPOSER), 'utf8').split('\n').indexOf(GATE.trimEnd()) + 1;
    const id = `cause:gke:${COMPOSER}:${line}`;

    const before = await diff(dir);
    const cause = before.findings.find((finding) => finding.id === id);
    expect(cause, JSON.stringify(before.findings.map((finding) => [finding.id, finding.where]))).toBeDefined();
    expect(cause).toMatchObject({ type: 'cause', class: 'behavioral', provider: 'gke', scenarios: ['converge'], where: [`${COMPOSER}:${line}`] });
    // Every consequence is gke's, placed at the early return, and each resource it withholds is one of them.
    const consequences = cause!.consequences!;
    expect(consequences.map((finding) => finding.id)).toEqual(expect.arrayContaining(GATED));
    for (const finding of consequences) expect([finding.provider, finding.facet, finding.where?.[0]], finding.id).toEqual(['gke', 'gated-on', `${COMPOSER}:${line}`]);
    // One finding for the place: nothing else in the report points at that line.
    expect(before.findings.filter((finding) => finding.where?.[0] === `${COMPOSER}:${line}`)).toEqual([cause]);
    expect(before.summary.consequences).toBe(before.summary.findings + consequences.length - 1);

    const accept = await runDrift(['accept', id, '--reason', 'gke waits for its ProviderConfig before composing anything'], dir);
    expect([accept.exitCode, accept.stderr]).toEqual([0, '']);
    // Whole scope: the cause's findings in every scenario, those of this run among them.
    expect(accept.stdout).toMatch(new RegExp(`${id.replaceAll('.', '\\.')} is \\d+ findings: `));
    for (const finding of consequences) expect(accept.stdout).toContain(finding.id);
    // The entries name the consequences, whose ids hold no line: they outlive the code moving.
    const entries = readFileSync(path.join(dir, 'goldens/accepted.yaml'), 'utf8');
    for (const finding of consequences) expect(entries).toContain(`id: ${finding.id}`);
    expect(entries).not.toContain('cause:');

    const after = await diff(dir);
    const closed = consequences.map((finding) => finding.id);
    expect(ids(after.findings).filter((one) => one === id || closed.includes(one))).toEqual([]);
    const accepted = after.accepted.find((finding) => finding.id === id);
    expect(accepted?.accepted?.reason).toBe('gke waits for its ProviderConfig before composing anything');
    expect(accepted?.consequences?.map((finding) => finding.id).sort()).toEqual([...closed].sort());

    // A cause that is not reported (the code moved) is refused, and nothing is written.
    const stale = await runDrift(['accept', `cause:gke:${COMPOSER}:${line + 1}`, '--reason', 'moved'], dir);
    expect(stale.exitCode).toBe(2);
    expect(stale.stderr).toContain('is not reported today');
    expect(readFileSync(path.join(dir, 'goldens/accepted.yaml'), 'utf8')).toBe(entries);
  }, SLOW);
});
