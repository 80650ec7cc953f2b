/**
 * drift expect on a copy of one bundled provider under another name, its goldens absent: it lists what
 * the others' conventions require and meets all of it; two drifts seeded into the copy are exactly
 * the two lines that then read "not met"; an accepted divergence of it reads "accepted".
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runDrift } from '../helpers/drift.js';
import { copyProject, mutate, replaceExactly, type ProjectCopy } from '../helpers/project.js';

const SLOW = 300_000;

type Status = 'met' | 'not met' | 'accepted';

interface Expected {
  provider: string;
  met: number;
  'not met': number;
  accepted: number;
  scenarios: Record<string, Record<string, Record<string, { expect: string; by: string; status?: Status; accepted?: string }>>>;
}

const lines = (doc: Expected) =>
  Object.entries(doc.scenarios).flatMap(([scenario, subjects]) => Object.entries(subjects).flatMap(([subject, facets]) => Object.entries(facets).map(([facet, line]) => ({ scenario, subject, facet, ...line }))));
const where = (line: { scenario: string; subject: string; facet: string }) => `${line.scenario} ${line.subject} ${line.facet}`;

describe('drift expect', () => {
  let project: ProjectCopy;
  beforeAll(() => {
    project = copyProject({ prefix: 'drift-expect-' });
    // nebius under another name: the same code, no goldens, no accepted entry naming it.
    cpSync(path.join(project.dir, 'providers/nebius'), path.join(project.dir, 'providers/fourth'), { recursive: true });
    const adapter = path.join(project.dir, 'providers/fourth/provider.yaml');
    writeFileSync(adapter, replaceExactly(readFileSync(adapter, 'utf8'), '\nname: nebius\n', '\nname: fourth\n'));
  });
  afterAll(() => project.remove());

  it('lists every convention of the others for a provider without goldens, and after two drifts exactly those two lines read "not met"', { timeout: SLOW }, async () => {
    const before = await runDrift(['expect', '-p', 'fourth'], project.dir);
    expect(before.exitCode, before.stderr).toBe(0);
    const clean = parse(before.stdout) as Expected;
    expect(clean.provider).toBe('fourth');
    const all = lines(clean);
    expect(clean['not met']).toBe(0);
    expect(all.length).toBe(clean.met + clean.accepted);
    expect(all.every((line) => line.status === 'met')).toBe(true);
    // The conventions drift diff judges by: every scenario, and both kinds of facet (a role's and a cell's).
    const scenarios = readdirSync(path.join(project.dir, 'scenarios')).map((file) => file.replace(/\.yaml$/, ''));
    expect([...new Set(all.map((line) => line.scenario))].sort()).toEqual(scenarios.sort());
    expect(all).toContainEqual(expect.objectContaining({ scenario: 'two-pools', subject: 'node-pool', facet: 'labels', expect: '["modelplane.ai/gpu","modelplane.ai/pool"]' }));
    expect(all).toContainEqual(expect.objectContaining({ scenario: 'fact-withdrawn', subject: 'then[0] withdraw-fact external-name', facet: 'outcome' }));

    // Two drifts, each visible in one scenario only: a label on the H100 pools (only two-pools asks
    // for one), and the StorageClass forgetting its filesystem ID once the cloud stops reporting it.
    mutate(project.dir, 'fourth', 'function/composer.py', (text) =>
      replaceExactly(text, '            labels["modelplane.ai/gpu"] = pool["gpu"]["type"]\n', '            labels["modelplane.ai/gpu"] = pool["gpu"]["type"]\n            if pool["gpu"]["type"].startswith("nvidia-h100"):\n                labels["modelplane.ai/large"] = "true"\n'),
    );
    mutate(project.dir, 'fourth', 'function/composer.py', (text) =>
      replaceExactly(text, ') or self._observed_fact(\n            "storage-class-rwx", "spec", "forProvider", "manifest", "parameters", "filesystemId"\n        )', ')'),
    );
    const after = await runDrift(['expect', '-p', 'fourth'], project.dir);
    expect(after.exitCode).toBe(1);
    const drifted = parse(after.stdout) as Expected;
    const unmet = lines(drifted).filter((line) => line.status === 'not met');
    expect(unmet.map(where).sort()).toEqual(['fact-withdrawn then[0] withdraw-fact external-name outcome', 'two-pools node-pool labels']);
    expect(drifted['not met']).toBe(2);
    // The same lines are listed; every other one still reads met.
    expect(lines(drifted).map(where).sort()).toEqual(all.map(where).sort());

    // An accepted divergence of the copy is honoured: shown as accepted, with its reason, not as not met.
    const acceptedFile = path.join(project.dir, 'goldens/accepted.yaml');
    writeFileSync(acceptedFile, `${readFileSync(acceptedFile, 'utf8').replace(/\n?$/, '\n')}  - facet: labels\n    subject: node-pool\n    scenario: two-pools\n    providers: [fourth]\n    reason: fourth marks its H100 pools as large\n`);
    const accepted = parse((await runDrift(['expect', '-p', 'fourth'], project.dir)).stdout) as Expected;
    const labels = lines(accepted).find((line) => where(line) === 'two-pools node-pool labels');
    expect(labels).toMatchObject({ status: 'accepted', accepted: 'fourth marks its H100 pools as large' });
    expect(accepted['not met']).toBe(1);
  });

  it('lists what is required of a provider the project does not have yet, without rendering anything', async () => {
    const run = await runDrift(['expect', '-p', 'nobody'], project.dir);
    expect(run.exitCode).toBe(0);
    const doc = parse(run.stdout) as Expected & { rendered: boolean };
    expect(doc.rendered).toBe(false);
    expect(lines(doc).every((line) => line.status === undefined)).toBe(true);
    expect(lines(doc).length).toBeGreaterThan(100);
  });
});
