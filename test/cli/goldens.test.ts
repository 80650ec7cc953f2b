/**
 * Goldens through the built CLI, as a user meets them: break a provider function in a copy of the
 * project, see `drift diff` name what changed, accept it with `drift update`, and check that drift
 * writes exactly the goldens it should, never under CI, and the same bytes every time.
 *
 * Needs the Python venv in .venv; Vitest's global set-up builds drift.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDrift, type DriftRun } from '../helpers/drift.js';
import { DEFAULT_CONFIG, REPO, changedGoldens, copyProject, hashGoldens, mutate, replaceExactly, type ProjectCopy } from '../helpers/project.js';

// Each drift run starts Python functions; on a 2-core machine two runs at a time is the useful maximum.
const limit = pLimit(2);
const drift = (args: string[], cwd: string, env?: Record<string, string>): Promise<DriftRun> => limit(() => runDrift(args, cwd, env));

const SLOW = 300_000; // queued behind other tests' runs, on a busy machine
const SCENARIOS = readdirSync(path.join(REPO, 'scenarios'))
  .filter((name) => name.endsWith('.yaml'))
  .map((name) => name.replace(/\.yaml$/, ''))
  .sort();
const NONDETERMINISTIC = path.join(REPO, 'test/fixtures/nondeterministic/provider.yaml');

// ---- reading drift diff's text report ---------------------------------------------------------------

interface ShownFinding {
  /** `provider/scenario` */
  where: string;
  message: string;
  id: string;
  /** The finding's header line. */
  line: string;
  /** The diff under it, each line without the report's indentation. */
  diff: string[];
  /** Everything printed for it. */
  block: string;
}

/** The ✗ findings of a text report (accepted ones, printed with ~, are not findings). */
function findingsIn(report: string): ShownFinding[] {
  const out: ShownFinding[] = [];
  let current: { head: RegExpExecArray; lines: string[] } | undefined;
  const flush = () => {
    if (!current) return;
    const [line, where, message, id] = current.head as unknown as [string, string, string, string];
    const body = current.lines.slice(1);
    // A cause is its consequences, one line each under it (`· what  [id]`): each read as a finding of the cause's place.
    if (id.startsWith('cause:')) {
      for (const consequence of body) {
        const shown = /^ {6}· (.*) {2}\[([^\]]+)\]$/.exec(consequence);
        if (shown) out.push({ where, message: shown[1]!, id: shown[2]!, line: consequence, diff: [], block: current.lines.join('\n') });
      }
      current = undefined;
      return;
    }
    out.push({
      where,
      message,
      id,
      line,
      diff: body.filter((l) => l.startsWith('      ') && !l.trimStart().startsWith('→')).map((l) => l.slice(6)),
      block: current.lines.join('\n'),
    });
    current = undefined;
  };
  for (const line of report.split('\n')) {
    // `eks/converge`, or a finding of several scenarios: `eks (2 scenarios: converge, two-pools)`.
    const head = /^ {2}✗ (\S+(?: \([^)]*\))?) {2}(.*) {2}\[([^\]]+)\]$/.exec(line);
    if (head) {
      flush();
      current = { head, lines: [line] };
    } else if (current && (line === '' || line.startsWith(' '))) {
      current.lines.push(line);
    } else {
      flush();
    }
  }
  flush();
  return out;
}

const cellsOf = (findings: ShownFinding[]) => [...new Set(findings.map((f) => f.where))].sort();

// ---- copies --------------------------------------------------------------------------------------------

const copies: ProjectCopy[] = [];
let baseline: ProjectCopy;
let baselineHashes: Record<string, string>;

/** A fresh copy of the repository as it is. */
function repoCopy(): ProjectCopy {
  const copy = copyProject();
  copies.push(copy);
  return copy;
}

/** A fresh copy of the baseline: the repository's functions with goldens just written by drift update. */
function fresh(): ProjectCopy {
  const copy = copyProject({ from: baseline.dir });
  copies.push(copy);
  return copy;
}

/** Removes every golden skeleton (goldens/<provider>/<scenario>.yaml), keeping goldens/accepted.yaml. */
function removeGoldenSkeletons(dir: string): void {
  const root = path.join(dir, 'goldens');
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (entry.isDirectory()) rmSync(path.join(root, entry.name), { recursive: true, force: true });
  }
}

/** `goldens/` as path → text, for comparing whole trees. */
function goldenTree(dir: string): Record<string, string> {
  const root = path.join(dir, 'goldens');
  return Object.fromEntries(Object.keys(hashGoldens(dir)).map((relative) => [relative, readFileSync(path.join(root, relative), 'utf8')]));
}

beforeAll(async () => {
  // The baseline every mutation starts from: the repository's functions, every golden rewritten by
  // drift itself. Mutation tests then see only the changes they make, even while the committed
  // goldens are being brought up to date (that is what the "unmodified copy" test checks).
  baseline = copyProject();
  copies.push(baseline);
  removeGoldenSkeletons(baseline.dir);
  const update = await drift(['update'], baseline.dir);
  expect(update.exitCode, update.all).toBe(0);
  const cells = SCENARIOS.length * readdirSync(path.join(REPO, 'providers'), { withFileTypes: true }).filter((e) => existsSync(path.join(REPO, 'providers', e.name, 'provider.yaml'))).length;
  expect(update.stdout).toContain(`${cells} added, 0 changed, 0 unchanged`);
  baselineHashes = hashGoldens(baseline.dir);
}, SLOW);

afterAll(() => {
  for (const copy of copies) copy.remove();
});

// ---- the tests -------------------------------------------------------------------------------------------

interface Mutation {
  what: string;
  provider: string;
  search: string;
  replace: string;
  /** Scenarios whose goldens change. */
  cells: string[];
  /** One cell: every golden finding id drift reports for it, and lines of one finding's diff. */
  example: { scenario: string; ids: string[]; section: string; change: 'added' | 'removed' | 'changed'; lines: Array<string | RegExp> };
  /** The cell updated on its own first. */
  updateOne: string;
  /** Contract rules the mutation breaks: their findings stay after the goldens are updated. */
  rule?: string | string[];
  /** Outline golden findings the mutation causes: a change to the code's structure, not only its values. */
  outline?: string[];
  /** Splits the mutation makes where it leaves two providers agreeing against it: too few voters to blame it. */
  splits?: string[];
}

const MUTATIONS: Mutation[] = [
  {
    what: '(a) the Kubernetes ProviderConfig is no longer marked READY_TRUE when composed (eks)',
    provider: 'eks',
    search: 'READY_WHEN_COMPOSED = ("provider-config-helm", "provider-config-kubernetes", "storage-class-rwx")',
    replace: 'READY_WHEN_COMPOSED = ("provider-config-helm", "storage-class-rwx")',
    cells: SCENARIOS,
    example: {
      scenario: 'converge',
      // A ProviderConfig has no Ready condition to wait for: never marked, it keeps the XR unready.
      ids: ['golden:eks/converge:converged', 'golden:eks/converge:resources.provider-config-kubernetes'],
      section: 'resources.provider-config-kubernetes',
      change: 'changed',
      lines: ['- ready: 0', '- readyBy: composed', '+ ready: null', '+ readyBy: null'],
    },
    rule: ['readiness-coverage', 'xr-converges'],
    updateOne: 'converge',
  },
  {
    what: '(b) node pools are composed as node-pool-<name> instead of nodepool-<name> (gke)',
    provider: 'gke',
    search: "key = f\"nodepool-{pool['name']}\"",
    replace: "key = f\"node-pool-{pool['name']}\"",
    // The key pattern is in the code too: the outline's link to behaviour changes with it, and so
    // does where each gate is checked relative to the key it gates.
    outline: ['golden:gke/outline:composes', 'golden:gke/outline:gates'],
    // Only eks and nebius compose a system pool besides gke: two that agree are no convention.
    splits: ['split:system-pool:key-pattern'],
    cells: SCENARIOS,
    example: {
      scenario: 'converge',
      ids: [
        'golden:gke/converge:resources.node-pool-gpu',
        'golden:gke/converge:resources.node-pool-system',
        'golden:gke/converge:resources.nodepool-gpu',
        'golden:gke/converge:resources.nodepool-system',
      ],
      section: 'resources.node-pool-gpu',
      change: 'added',
      lines: ['+ apiVersion: container.gcp.m.upbound.io/v1beta1', '+ kind: NodePool', '+ appears: 1'],
    },
    updateOne: 'two-pools',
  },
  {
    what: '(c) status.cache is no longer published (nebius)',
    provider: 'nebius',
    search: '        if "storage-class-rwx" in self.desired:\n            status["cache"] = {"storageClassName": STORAGE_CLASS}\n',
    replace: '',
    // Without credentials the filesystem never gets its id, so no StorageClass and no cache either way.
    cells: SCENARIOS.filter((scenario) => scenario !== 'credentials-missing'),
    // The removed `if` was a check in the composer's code: what its module reads and checks changes.
    outline: ['golden:nebius/outline:files.function/composer.py'],
    example: {
      scenario: 'converge',
      ids: ['golden:nebius/converge:status'],
      section: 'status',
      change: 'changed',
      lines: ['- cache:', '-   storageClassName: modelplane-rwx'],
    },
    updateOne: 'never-ready',
    rule: 'cache-storage-class',
  },
  {
    what: "(d) the StorageClass Object's management policies include Delete (eks)",
    provider: 'eks',
    search: '"managementPolicies": ["Observe", "Create", "Update", "LateInitialize"],',
    // The same length, so the seeded code stays formatted and only its behaviour differs.
    replace: '"managementPolicies": ["Observe", "Create", "Update", "Delete"],',
    cells: SCENARIOS.filter((scenario) => scenario !== 'credentials-missing'),
    example: {
      scenario: 'two-pools',
      ids: ['golden:eks/two-pools:resources.storage-class-rwx'],
      section: 'resources.storage-class-rwx',
      change: 'changed',
      lines: ['+   - Delete'],
    },
    updateOne: 'two-pools',
    rule: 'in-cluster-no-delete',
  },
  {
    what: '(e) the IAM binding is dropped when the credentials disappear (gke)',
    provider: 'gke',
    search:
      '        if not (member and project):\n' +
      '            member = self._observed_fact("iam-binding", "spec", "forProvider", "member")\n' +
      '            project = self._observed_fact("iam-binding", "spec", "forProvider", "project")\n',
    replace: '',
    cells: ['credentials-lost', 'fact-withdrawn'], // the binding is built from the service account's email, which fact-withdrawn withdraws too
    example: {
      scenario: 'credentials-lost',
      ids: ['golden:gke/credentials-lost:then'],
      section: 'then',
      change: 'changed',
      lines: ['-   dropped: []', '+   dropped:', '+     - iam-binding'],
    },
    updateOne: 'credentials-lost',
    // Withdrawing every cloud fact (the email among them) drops the binding too.
    rule: ['credentials-loss-drops-nothing', 'nothing-dropped'],
  },
];

describe.concurrent('drift goldens through the CLI', () => {
  it('an unmodified copy of the project: drift diff exits 0', async () => {
    const copy = repoCopy();
    const run = await drift(['diff'], copy.dir);
    expect(run.exitCode, run.all).toBe(0);
    expect(findingsIn(run.stdout)).toEqual([]);
    expect(run.stdout).toMatch(/\d+ providers × \d+ scenarios: no findings/);
  }, SLOW);

  for (const m of MUTATIONS) {
    it(`${m.what}: diff names it, update rewrites exactly the affected goldens`, async () => {
      const { dir } = fresh();
      mutate(dir, m.provider, 'function/composer.py', (text) => replaceExactly(text, m.search, m.replace));
      const before = hashGoldens(dir);
      expect(before).toEqual(baselineHashes);

      // drift diff: exit 1, naming provider, scenario, section and the change itself
      const diff = await drift(['diff', '--provider', m.provider], dir);
      expect(diff.exitCode, diff.all).toBe(1);
      const shown = findingsIn(diff.stdout);
      // Skeleton goldens here; a provider's outline golden (no scenario) speaks for its code.
      const golden = shown.filter((f) => f.id.startsWith('golden:') && !f.id.startsWith(`golden:${m.provider}/outline:`));
      expect(shown.filter((f) => f.id.startsWith(`golden:${m.provider}/outline:`)).map((f) => f.id)).toEqual(m.outline ?? []);
      expect(cellsOf(golden)).toEqual(m.cells.map((scenario) => `${m.provider}/${scenario}`).sort());
      const cell = `${m.provider}/${m.example.scenario}`;
      expect(golden.filter((f) => f.where === cell).map((f) => f.id).sort()).toEqual([...m.example.ids].sort());
      const example = golden.find((f) => f.id === `golden:${cell}:${m.example.section}`)!;
      expect(example.line).toContain(`✗ ${cell}  ${m.example.section} ${m.example.change}`);
      expect(example.diff.slice(0, 2)).toEqual(['- golden', '+ rendered']);
      for (const expected of m.example.lines) {
        if (typeof expected === 'string') expect(example.diff, example.block).toContain(expected);
        else expect(example.diff.some((line) => expected.test(line)), example.block).toBe(true);
      }
      expect(example.block).toContain(`drift update --provider ${m.provider} --scenario ${m.example.scenario}`);
      const rules = m.rule === undefined ? [] : [m.rule].flat();
      for (const rule of rules) expect(shown.some((f) => f.id.startsWith(`rule:${rule}:${m.provider}:`)), diff.stdout).toBe(true);
      expect(hashGoldens(dir), 'drift diff never writes').toEqual(before);

      // drift update for one affected cell: exactly that golden changes
      const one = await drift(['update', '--provider', m.provider, '--scenario', m.updateOne], dir);
      expect(one.exitCode, one.all).toBe(0);
      expect(one.stdout).toContain(`changed   ${path.join('goldens', m.provider, `${m.updateOne}.yaml`)}\n`);
      expect(one.stdout).toContain('0 added, 1 changed, 0 unchanged');
      expect(changedGoldens(before, hashGoldens(dir))).toEqual([`${m.provider}/${m.updateOne}.yaml`]);

      // drift update for every affected cell: those goldens and nothing else
      const all = await drift(['update', '--provider', m.provider, ...m.cells.flatMap((scenario) => ['--scenario', scenario])], dir);
      expect(all.exitCode, all.all).toBe(0);
      expect(all.stdout).toContain(`0 added, ${m.cells.length - 1} changed, 1 unchanged`);
      expect(changedGoldens(before, hashGoldens(dir))).toEqual(m.cells.map((scenario) => `${m.provider}/${scenario}.yaml`).sort());

      // The goldens now agree with the function. What still speaks up: the broken contract rules, and
      // the divergence from the other providers, which a filtered run compares through their goldens.
      const again = await drift(['diff', '--provider', m.provider], dir);
      const left = findingsIn(again.stdout);
      expect(left.filter((f) => f.id.startsWith('golden')).map((f) => f.id), again.stdout).toEqual(m.outline ?? []);
      const divergences = left.filter((f) => f.id.startsWith('div:') && f.id.endsWith(`:${m.provider}`));
      expect(again.exitCode, again.all).toBe(left.length ? 1 : 0);
      for (const rule of rules) expect(left.some((f) => f.id.startsWith(`rule:${rule}:${m.provider}:`)), again.stdout).toBe(true);
      expect(left.filter((f) => f.id.startsWith('split:')).map((f) => f.id), again.stdout).toEqual(m.splits ?? []);
      const unexpected = left.filter((f) => !divergences.includes(f) && !rules.some((rule) => f.id.startsWith(`rule:${rule}:${m.provider}:`)) && !(m.outline ?? []).includes(f.id) && !(m.splits ?? []).includes(f.id));
      expect(unexpected.map((f) => f.id), again.stdout).toEqual([]);
    }, SLOW);
  }

  it('drift update under CI=true exits 2 and writes nothing', async () => {
    const { dir } = fresh();
    rmSync(path.join(dir, 'goldens/gke/converge.yaml'));
    writeFileSync(path.join(dir, 'goldens/gke/no-such-scenario.yaml'), readFileSync(path.join(dir, 'goldens/gke/two-pools.yaml')));
    const before = hashGoldens(dir);
    for (const [ci, args] of [
      ['true', ['update']],
      ['1', ['update', '--provider', 'gke', '--scenario', 'converge']],
      ['true', ['update', '--prune']],
    ] as const) {
      // refused before anything renders, so no need to queue for a CPU
      const run = await runDrift([...args], dir, { CI: ci });
      expect(run.exitCode, `${args.join(' ')} with CI=${ci}: ${run.all}`).toBe(2);
      expect(run.stderr).toContain('CI is set');
      expect(run.stdout).toBe('');
      expect(hashGoldens(dir)).toEqual(before);
    }
    expect(existsSync(path.join(dir, 'goldens/gke/converge.yaml'))).toBe(false);
  }, SLOW);

  it('drift update --prune removes a golden of a scenario that does not exist, which diff reports as obsolete', async () => {
    const { dir } = fresh();
    const obsolete = path.join(dir, 'goldens/gke/no-such-scenario.yaml');
    writeFileSync(obsolete, readFileSync(path.join(dir, 'goldens/gke/converge.yaml')));
    const before = hashGoldens(dir);

    const diff = await drift(['diff', '--provider', 'gke'], dir);
    expect(diff.exitCode, diff.all).toBe(1);
    const shown = findingsIn(diff.stdout);
    expect(shown.map((f) => f.id)).toEqual(['golden-obsolete:gke/no-such-scenario']);
    expect(shown[0]!.message).toContain(`${path.join('goldens', 'gke', 'no-such-scenario.yaml')} is obsolete`);
    expect(shown[0]!.block).toContain('drift update --prune');

    const update = await drift(['update', '--provider', 'gke'], dir);
    expect(update.exitCode, update.all).toBe(0);
    expect(existsSync(obsolete), 'update without --prune keeps it').toBe(true);

    const prune = await drift(['update', '--provider', 'gke', '--prune'], dir);
    expect(prune.exitCode, prune.all).toBe(0);
    expect(prune.stdout).toContain(`removed   ${path.join('goldens', 'gke', 'no-such-scenario.yaml')}\n`);
    expect(prune.stdout).toContain(`0 added, 0 changed, ${SCENARIOS.length} unchanged, 1 removed`);
    expect(existsSync(obsolete)).toBe(false);
    expect(changedGoldens(before, hashGoldens(dir))).toEqual(['gke/no-such-scenario.yaml']);
  }, SLOW);

  it('temporary files a killed write left behind: the next update and diff remove them and never call them goldens', async () => {
    const { dir } = fresh();
    // The pid of a process that has exited: what a SIGKILLed drift leaves in its temporary file names.
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    const half = 'skeleton: 1\nprovider: gk';
    const leftovers = [`gke/converge.yaml.tmp-${dead}`, `accepted.yaml.tmp-${dead}`];
    for (const file of leftovers) writeFileSync(path.join(dir, 'goldens', file), half);
    // A write in progress belongs to another running drift (here: a process that waits): it stays.
    const writer = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120_000)'], { stdio: 'ignore' });
    const inFlight = `gke/two-pools.yaml.tmp-${writer.pid}`;
    writeFileSync(path.join(dir, 'goldens', inFlight), half);

    const update = await drift(['update', '--provider', 'gke', '--scenario', 'converge'], dir);
    expect(update.exitCode, update.all).toBe(0);
    // --scenario leaves gke's existing outline golden as it is.
    expect(update.stdout).toBe('0 added, 0 changed, 1 unchanged; outlines: 0 added, 0 changed, 1 unchanged\n');
    for (const file of leftovers) {
      expect(existsSync(path.join(dir, 'goldens', file)), file).toBe(false);
      expect(update.stderr).toContain(`removed ${path.join('goldens', file)}, left by an interrupted write`);
    }
    expect(existsSync(path.join(dir, 'goldens', inFlight))).toBe(true);

    const another = `eks/never-ready.yaml.tmp-${dead}`;
    writeFileSync(path.join(dir, 'goldens', another), half);
    const diff = await drift(['diff', '--provider', 'eks'], dir);
    expect(diff.exitCode, diff.all).toBe(0);
    expect(findingsIn(diff.stdout)).toEqual([]);
    expect(existsSync(path.join(dir, 'goldens', another))).toBe(false);
    rmSync(path.join(dir, 'goldens', inFlight));
    writer.kill();
    expect(hashGoldens(dir)).toEqual(baselineHashes);
  }, SLOW);

  it('a golden written by another skeleton version is reported, and update rewrites it', async () => {
    const { dir } = fresh();
    const file = path.join(dir, 'goldens/gke/converge.yaml');
    const text = readFileSync(file, 'utf8');
    const version = Number(/^skeleton: (\d+)\n/.exec(text)?.[1]);
    expect(Number.isInteger(version)).toBe(true);
    writeFileSync(file, text.replace(/^skeleton: \d+\n/, `skeleton: ${version + 1}\n`));

    const diff = await drift(['diff', '--provider', 'gke', '--scenario', 'converge'], dir);
    expect(diff.exitCode, diff.all).toBe(1);
    const shown = findingsIn(diff.stdout);
    expect(shown.map((f) => f.id)).toEqual(['golden-unreadable:gke/converge']);
    expect(shown[0]!.line).toContain(`gke/converge  the golden of gke/converge is skeleton format ${version + 1}, drift writes ${version}`);
    expect(shown[0]!.block).toContain('drift update --provider gke --scenario converge');

    const update = await drift(['update', '--provider', 'gke', '--scenario', 'converge'], dir);
    expect(update.exitCode, update.all).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(hashGoldens(dir)).toEqual(baselineHashes);
  }, SLOW);

  it('two drift update runs into two fresh copies write byte-identical golden trees', async () => {
    // The first run is the baseline (every golden removed, then written by drift update); this is the second.
    const copy = repoCopy();
    removeGoldenSkeletons(copy.dir);
    const update = await drift(['update'], copy.dir);
    expect(update.exitCode, update.all).toBe(0);
    const first = goldenTree(baseline.dir);
    const second = goldenTree(copy.dir);
    expect(Object.keys(second)).toEqual(Object.keys(first));
    expect(Object.keys(first).filter((f) => f.endsWith('.yaml') && f.includes('/')).length).toBeGreaterThanOrEqual(SCENARIOS.length * 3);
    for (const file of Object.keys(first)) expect(second[file], file).toBe(first[file]);
  }, SLOW);

  it('a non-deterministic function is reported as such, naming provider and scenario, and gets no golden', async () => {
    const { dir } = fresh();
    writeFileSync(
      path.join(dir, 'nondeterministic.config.yaml'),
      // The fixture lies outside the project copy: the config lists its folder as a root (docs/limits.md).
      `${DEFAULT_CONFIG.replace('providers: [providers/*/provider.yaml]', `providers: [providers/gke/provider.yaml, ${JSON.stringify(NONDETERMINISTIC)}]`)}roots: [${JSON.stringify(path.dirname(NONDETERMINISTIC))}]\n`,
    );
    const config = ['--config', 'nondeterministic.config.yaml'];

    const diff = await drift([...config, 'diff', '--scenario', 'converge'], dir);
    expect(diff.exitCode, diff.all).toBe(1);
    const shown = findingsIn(diff.stdout);
    const reported = shown.filter((f) => f.message.includes('two renders of the same input differ'));
    expect(reported.map((f) => f.where), diff.stdout).toEqual(['nondeterministic/converge']);
    expect(reported[0]!.id).toMatch(/^rule:deterministic-output:nondeterministic:/);

    const update = await drift([...config, 'update', '--provider', 'nondeterministic', '--scenario', 'converge'], dir);
    expect(update.exitCode, update.all).toBe(1);
    expect(update.stderr).toContain(`not written ${path.join('goldens', 'nondeterministic', 'converge.yaml')}`);
    expect(existsSync(path.join(dir, 'goldens/nondeterministic'))).toBe(false);
    expect(hashGoldens(dir)).toEqual(baselineHashes);
  }, SLOW);
});
