/**
 * drift expect on a copy of one bundled provider under another name, its goldens absent: one line per
 * requirement drift diff -p judges (conventions, accepted ways, rules, style), each with its scenarios;
 * what it does not meet is only the accepted ways it joins; two drifts seeded into the copy are exactly
 * the lines that then read "not met" beside them; an accepted divergence of it reads "accepted".
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { ExpectDocument } from '../../src/cli/expectCommand.js';
import { runDrift } from '../helpers/drift.js';
import { copyProject, mutate, REPO, replaceExactly, type ProjectCopy } from '../helpers/project.js';

const SLOW = 300_000;

type Expected = Required<Pick<ExpectDocument, 'met' | 'not met' | 'accepted'>> & ExpectDocument;

// The StorageClass that forgets its filesystem ID is dropped, which the contract forbids too.
const DRIFTED = ['div:node-pool:labels:fourth', 'div:then.0-withdraw-fact-every:outcome:fourth', 'rule:nothing-dropped:fourth:storage-class-rwx'];
const unmetIds = (doc: Expected) => doc.requirements.filter((line) => line.status === 'not met').map((line) => line.id);

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

  it('lists each requirement once with its scenarios; only the accepted ways it joins are not met, and after two drifts exactly what they break too', { timeout: SLOW }, async () => {
    const before = await runDrift(['expect', '-p', 'fourth'], project.dir);
    expect(before.exitCode, before.stderr).toBe(1);
    const clean = parse(before.stdout) as Expected;
    expect(clean.provider).toBe('fourth');
    const all = clean.requirements;
    expect(all.length).toBe(clean.met + clean['not met'] + clean.accepted);
    // Not met: nebius's ways of the accepted splits, which the entries accept for nebius alone.
    const joined = all.filter((line) => line.status === 'not met');
    expect(joined.length).toBeGreaterThan(0);
    for (const line of joined) expect(line, line.id).toMatchObject({ by: expect.stringMatching(/^accepted split, entry \d+: /), message: expect.stringContaining('fourth joins the accepted way of'), hint: expect.stringContaining('drift accept') });
    // Every scenario, and each kind of requirement diff judges: a role's convention, a cell's, a rule, the code's style.
    const scenarios = readdirSync(path.join(project.dir, 'scenarios')).map((file) => file.replace(/\.yaml$/, ''));
    expect([...new Set(all.flatMap((line) => line.scenarios))].sort()).toEqual(scenarios.sort());
    expect(all).toContainEqual(expect.objectContaining({ id: 'div:node-pool:labels:fourth', expect: '[modelplane.ai/gpu, modelplane.ai/pool]', by: expect.stringMatching(/^convention of /), scenarios: expect.arrayContaining(['converge', 'two-pools']), status: 'met' }));
    expect(all).toContainEqual(expect.objectContaining({ id: 'div:then.0-withdraw-fact-every:outcome:fourth', scenarios: ['fact-withdrawn'], status: 'met' }));
    expect(all).toContainEqual(expect.objectContaining({ id: 'rule:nothing-dropped:fourth', by: 'contract rule', status: 'met' }));
    expect(all.some((line) => line.id.startsWith('style:') && line.id.endsWith(':fourth') && line.scenarios.length === 0 && line.status === 'met')).toBe(true);
    // One line per distinct requirement.
    expect(new Set(all.map((line) => `${line.id} ${line.expect} ${line.by}`)).size).toBe(all.length);

    // Two drifts, each visible in one scenario only: a label on the H100 pools (only two-pools asks
    // for one), and the StorageClass forgetting its filesystem ID once the cloud stops reporting it.
    mutate(project.dir, 'fourth', 'function/composer.py', (text) =>
      replaceExactly(text, '            labels["modelplane.ai/gpu"] = pool["gpu"]["type"]\n', '            labels["modelplane.ai/gpu"] = pool["gpu"]["type"]\n            if pool["gpu"]["type"].startswith("nvidia-h100"):\n                labels["modelplane.ai/large"] = "true"\n'),
    );
    mutate(project.dir, 'fourth', 'function/composer.py', (text) =>
      replaceExactly(text, ') or self._observed_fact(\n            "storage-class-rwx", "spec", "forProvider", "manifest", "parameters", "filesystemId"\n        )', ')'),
    );
    // Written in the house style, so only the behaviour differs.
    const format = spawnSync(path.join(REPO, '.venv/bin/ruff'), ['format', '--quiet', path.join(project.dir, 'providers/fourth/function/composer.py')]);
    expect(format.status, String(format.stderr)).toBe(0);
    const only = ['-s', 'two-pools', '-s', 'fact-withdrawn'];
    const after = await runDrift(['expect', '-p', 'fourth', ...only, '--unmet', '--format', 'json'], project.dir);
    expect(after.exitCode).toBe(1);
    const drifted = JSON.parse(after.stdout) as Expected;
    const inTheseScenarios = joined.filter((line) => line.scenarios.some((scenario) => scenario === 'two-pools' || scenario === 'fact-withdrawn')).map((line) => line.id);
    expect(unmetIds(drifted).sort()).toEqual([...new Set([...inTheseScenarios, ...DRIFTED])].sort());
    expect(drifted.requirements.find((line) => line.id === 'div:node-pool:labels:fourth')).toMatchObject({ notMetIn: ['two-pools'], hint: expect.stringContaining('modelplane.ai/large') });
    // As YAML (the default): each id on its own one line, notMetIn within the line's scenarios, and where for what blames fourth.
    const yaml = await runDrift(['expect', '-p', 'fourth', ...only, '--unmet'], project.dir);
    const unmet = parse(yaml.stdout) as Expected;
    const idLines = yaml.stdout.split('\n').filter((line) => line.startsWith('  - id: '));
    expect(idLines.map((line) => (parse(line.slice(4)) as { id: string }).id)).toEqual(unmet.requirements.map((line) => line.id));
    for (const line of unmet.requirements.filter((one) => one.status === 'not met')) {
      const { notMetIn = [], scenarios } = line as typeof line & { notMetIn?: string[]; where?: string[] };
      if (scenarios.length) expect(notMetIn.filter((scenario) => !scenarios.includes(scenario)), line.id).toEqual([]);
      if (line.id.startsWith('div:') && line.id.endsWith(':fourth')) expect((line as { where?: string[] }).where?.length, line.id).toBeGreaterThan(0);
    }

    // An accepted divergence of the copy is honoured: shown as accepted, with its reason, not as not met.
    const acceptedFile = path.join(project.dir, 'goldens/accepted.yaml');
    writeFileSync(acceptedFile, `${readFileSync(acceptedFile, 'utf8').replace(/\n?$/, '\n')}  - facet: labels\n    subject: node-pool\n    scenario: two-pools\n    providers: [fourth]\n    reason: fourth marks its H100 pools as large\n`);
    const accepted = parse((await runDrift(['expect', '-p', 'fourth', '-s', 'two-pools'], project.dir)).stdout) as Expected;
    expect(accepted.requirements.find((line) => line.id === 'div:node-pool:labels:fourth' && line.scenarios.includes('two-pools'))).toMatchObject({ status: 'accepted', accepted: 'fourth marks its H100 pools as large' });
    expect(unmetIds(accepted)).not.toContain('div:node-pool:labels:fourth');
  });

  it('lists what is required of a provider the project does not have yet, without rendering anything', async () => {
    const run = await runDrift(['expect', '-p', 'nobody'], project.dir);
    expect(run.exitCode).toBe(0);
    const doc = parse(run.stdout) as Expected;
    expect(doc.rendered).toBe(false);
    expect(doc.requirements.every((line) => line.status === undefined)).toBe(true);
    expect(doc.requirements.length).toBeGreaterThan(100);
    // Rules and the code's style are required of it too; the accepted ways want an entry naming it.
    expect(doc.requirements).toContainEqual(expect.objectContaining({ id: 'rule:nothing-dropped:nobody', by: 'contract rule' }));
    expect(doc.requirements.some((line) => line.id.startsWith('style:'))).toBe(true);
    expect(doc.requirements).toContainEqual(expect.objectContaining({ id: 'div:requirements:requires:nobody', expect: expect.stringMatching(/^an accepted entry naming nobody, for one of: /) }));
  });
});

describe('drift expect for a function that cannot start', () => {
  it('exits 2 with the one start error, and no requirement lines met or not met', async () => {
    const { dir, remove } = copyProject({ prefix: 'drift-expect-crash-' });
    try {
      cpSync(path.join(REPO, 'test/fixtures/broken/crash'), path.join(dir, 'providers', 'crash'), { recursive: true });
      const adapter = path.join(dir, 'providers', 'crash', 'provider.yaml');
      writeFileSync(adapter, readFileSync(adapter, 'utf8').replace('../../../../.venv/', '../../.venv/').replace('../../../../schemas/', '../../schemas/'));
      const run = await runDrift(['expect', '-p', 'crash'], dir, { DRIFT_NO_CACHE: '1' });
      expect(run.exitCode, run.all).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.match(/^drift: /gm)).toHaveLength(1);
      expect(run.stderr).toContain('crash: the function exited (code 1) before answering a call');
      expect(run.stderr).toContain('cannot load configuration');
    } finally {
      remove();
    }
  }, 120_000);
});
