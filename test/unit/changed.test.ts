/**
 * `drift diff --changed`, the pure half: which changed files render which providers, which force a
 * full run and which drift reads nothing from; the sentence every report format prints; the JSON
 * report's `changed` against its schema, and Markdown escaping what a pull request named.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { Adapter, Project } from '../../src/config/types.js';
import { changedRun, selectChanged } from '../../src/pipeline/changedRun.js';
import { LOCAL_POLICY } from '../../src/util/ci.js';
import { describeChanged } from '../../src/report/changedText.js';
import { renderJson } from '../../src/report/json.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { buildReport, type ChangedRun } from '../../src/report/model.js';
import { renderText } from '../../src/report/text.js';

const TOP = '/repo';
const BASE = '0123456789abcdef0123456789abcdef01234567';
/** Not inside the repository: drift installed as a package. */
const INSTALLED = '/elsewhere/node_modules/drift';

function adapter(name: string, options: { cwd?: string; xrd?: string } = {}): Adapter {
  const dir = `${TOP}/providers/${name}`;
  const cwd = options.cwd ?? dir;
  return {
    name,
    file: `${dir}/provider.yaml`,
    dir,
    function: { command: ['python'], cwd, env: {} },
    source: { root: cwd, include: ['**/*.py'] },
    ...(options.xrd ? { xrd: { file: options.xrd } } : {}),
  } as unknown as Adapter;
}

function project(adapters: Adapter[] = ['aks', 'eks', 'gke'].map((name) => adapter(name))): Project {
  return {
    config: { root: TOP, file: `${TOP}/drift.config.yaml`, providers: ['providers/*/provider.yaml'], scenarios: ['scenarios/*.yaml'], goldens: 'goldens', contract: 'providers', concurrency: 2, maxSteps: 8, timeouts: { startMs: 1, callMs: 1 } },
    adapters,
    scenarios: [{ name: 'converge', file: `${TOP}/scenarios/converge.yaml` }, { name: 'never-ready', file: `${TOP}/scenarios/never-ready.yaml` }] as Project['scenarios'],
    env: {},
    policy: LOCAL_POLICY,
  };
}

const run = (paths: string[], options: { of?: Project; driftRoot?: string } = {}): ChangedRun => changedRun(options.of ?? project(), { top: TOP, ref: 'main', base: BASE, paths }, options.driftRoot ?? INSTALLED);

describe('which providers a change renders', () => {
  it("a file in one provider's function folder renders that provider only", () => {
    const changed = run(['providers/eks/function/fn.py']);
    expect(changed).toEqual({ ref: 'main', base: BASE, run: 'partial', rendered: ['eks'], files: [{ file: 'providers/eks/function/fn.py', kind: 'function', provider: 'eks' }], ignored: 0 });
  });

  it('its adapter, its XRD (wherever the adapter keeps it) and its goldens are the provider’s own too', () => {
    const of = project([adapter('aks'), adapter('eks', { xrd: `${TOP}/apis/eks.yaml` }), adapter('gke')]);
    const changed = run(['apis/eks.yaml', 'goldens/gke/converge.yaml', 'goldens/gke/outline.yaml', 'providers/eks/provider.yaml'], { of });
    expect(changed.run).toBe('partial');
    expect(changed.rendered).toEqual(['eks', 'gke']);
    expect(changed.files).toEqual([
      { file: 'apis/eks.yaml', kind: 'xrd', provider: 'eks' },
      { file: 'goldens/gke/converge.yaml', kind: 'golden', provider: 'gke' },
      { file: 'goldens/gke/outline.yaml', kind: 'golden', provider: 'gke' },
      { file: 'providers/eks/provider.yaml', kind: 'adapter', provider: 'eks' },
    ]);
  });

  it('renders in the configuration’s order, whatever order the paths came in', () => {
    expect(run(['providers/gke/x.py', 'providers/aks/x.py']).rendered).toEqual(['aks', 'gke']);
  });

  it('every provider’s own files changed is a full run (nothing left to stand in)', () => {
    const changed = run(['providers/aks/a.py', 'providers/eks/a.py', 'providers/gke/a.py']);
    expect(changed.run).toBe('full');
    expect(changed.rendered).toEqual(['aks', 'eks', 'gke']);
  });

  it('nothing drift reads changed: run none, nothing rendered, the rest counted as ignored', () => {
    const changed = run(['README.md', 'docs/ci.md', '.github/workflows/drift.yml', 'test/cli/x.test.ts']);
    expect(changed).toMatchObject({ run: 'none', rendered: [], files: [], ignored: 4 });
    expect(run([])).toMatchObject({ run: 'none', rendered: [], files: [], ignored: 0 });
  });

  it('the generated contract is drift\'s own output: ignored, though it sits beside the providers', () => {
    const generated = ['providers/CONTRACT.md', 'providers/contract.json', 'providers/skills/drift-add-provider/SKILL.md'];
    expect(run(generated)).toMatchObject({ run: 'none', rendered: [], files: [], ignored: 3 });
    // Anything else beside the providers is still shared by all of them.
    expect(run(['providers/NOTES.md'])).toMatchObject({ run: 'full' });
  });
});

describe('what forces a full run', () => {
  const cases: Array<[string, string, string]> = [
    ['a scenario', 'scenarios/converge.yaml', 'scenario'],
    ['a scenario the glob matches that is gone now (deleted or renamed)', 'scenarios/old-name.yaml', 'scenario'],
    ['drift.config.yaml', 'drift.config.yaml', 'config'],
    ['accepted entries', 'goldens/accepted.yaml', 'accepted'],
    ['conventions', 'goldens/conventions.yaml', 'conventions'],
    ['a golden of no provider (one that is gone)', 'goldens/removed/converge.yaml', 'golden'],
    ["the providers' requirements", 'providers/requirements.txt', 'shared'],
    ["the providers' ruff.toml", 'providers/ruff.toml', 'shared'],
    ['a module beside the provider folders', 'providers/common/util.py', 'shared'],
    ['a removed provider’s folder', 'providers/gone/provider.yaml', 'shared'],
    ['a ruff configuration above the providers', 'pyproject.toml', 'shared'],
    ['code in the providers’ language elsewhere', 'lib/shared.py', 'shared'],
    ['a lockfile (drift’s own version)', 'package-lock.json', 'drift'],
    ['a package manifest', 'tools/package.json', 'drift'],
  ];
  for (const [what, file, kind] of cases) {
    it(`${what}: ${file}`, () => {
      const changed = run([file, 'providers/eks/function/fn.py']);
      expect(changed.run).toBe('full');
      expect(changed.rendered).toEqual(['aks', 'eks', 'gke']);
      expect(changed.files.find((entry) => entry.file === file)).toEqual({ file, kind });
    });
  }

  it('a folder several providers claim (one working folder for all) is shared', () => {
    const of = project(['aks', 'eks'].map((name) => adapter(name, { cwd: `${TOP}/functions` })));
    expect(run(['functions/compose.py'], { of }).files).toEqual([{ file: 'functions/compose.py', kind: 'shared' }]);
    // The provider's own folder is deeper than the shared one: still its own.
    expect(run(['providers/eks/provider.yaml'], { of }).files).toEqual([{ file: 'providers/eks/provider.yaml', kind: 'adapter', provider: 'eks' }]);
  });

  it('an XRD two adapters name is shared', () => {
    const xrd = `${TOP}/apis/cluster.yaml`;
    const of = project([adapter('aks', { xrd }), adapter('eks', { xrd })]);
    expect(run(['apis/cluster.yaml'], { of })).toMatchObject({ run: 'full', files: [{ file: 'apis/cluster.yaml', kind: 'shared' }] });
  });

  it("in a checkout of drift itself, drift's own code is drift (its tests and docs are not)", () => {
    const changed = run(['src/compare/cross.ts', 'schemas/report.schema.json', 'test/unit/x.test.ts', 'README.md'], { driftRoot: TOP });
    expect(changed.files).toEqual([
      { file: 'schemas/report.schema.json', kind: 'drift' },
      { file: 'src/compare/cross.ts', kind: 'drift' },
    ]);
    expect(changed.ignored).toBe(2);
    // drift installed elsewhere: the same paths are somebody else's code.
    expect(run(['src/compare/cross.ts']).run).toBe('none');
  });
});

describe('the selection a changed run renders', () => {
  it('partial: exactly the rendered providers; none: no provider at all, not every one', () => {
    const full = project();
    const partial = selectChanged(full, run(['providers/gke/x.py']), []);
    expect(partial.project.adapters.map((a) => a.name)).toEqual(['gke']);
    expect(partial.filters).toEqual({ providers: ['gke'], scenarios: [], exact: true });
    const none = selectChanged(full, run(['README.md']), ['converge']);
    expect(none.project.adapters).toEqual([]);
    expect(none.project.scenarios.map((s) => s.name)).toEqual(['converge']);
    expect(none.filters).toEqual({ providers: [], scenarios: ['converge'], exact: true });
    const all = selectChanged(full, run(['scenarios/converge.yaml']), []);
    expect(all.project.adapters).toHaveLength(3);
    expect(all.filters).toEqual({ providers: [], scenarios: [] });
  });
});

describe('the sentence every report format prints', () => {
  const plain = { file: (file: string) => file, name: (text: string) => text };

  it('partial: who was rendered, for which files; the others from goldens', () => {
    expect(describeChanged(run(['providers/eks/function/fn.py', 'README.md']), plain)).toBe(
      'since main (0123456789ab): rendered: eks (providers/eks/function/fn.py changed); others from goldens; 1 other changed file drift reads nothing from',
    );
    expect(describeChanged(run(['providers/eks/a.py', 'providers/eks/b.py', 'providers/eks/c.py', 'providers/eks/d.py', 'providers/gke/provider.yaml']), plain)).toBe(
      'since main (0123456789ab): rendered: eks (providers/eks/a.py, providers/eks/b.py, providers/eks/c.py and 1 more changed), gke (providers/gke/provider.yaml changed); others from goldens',
    );
  });

  it('full: the files that force it, with why', () => {
    expect(describeChanged(run(['scenarios/converge.yaml']), plain)).toBe('since main (0123456789ab): full run: scenarios/converge.yaml (a scenario) changed');
    expect(describeChanged(run(['drift.config.yaml', 'goldens/accepted.yaml', 'providers/eks/x.py']), plain)).toBe(
      'since main (0123456789ab): full run: drift.config.yaml (the config) and goldens/accepted.yaml (accepted entries) changed',
    );
    expect(describeChanged(run(['providers/aks/a.py', 'providers/eks/a.py', 'providers/gke/a.py']), plain)).toBe("since main (0123456789ab): full run: every provider's own files changed");
  });

  it('none: says so', () => {
    expect(describeChanged(run([]), plain)).toBe('since main (0123456789ab): nothing drift reads changed; no provider rendered, every provider judged from its goldens');
  });
});

describe('the report', () => {
  const schema = JSON.parse(readFileSync(fileURLToPath(new URL('../../schemas/report.schema.json', import.meta.url)), 'utf8')) as Record<string, unknown>;
  const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);

  it('JSON: `changed` after sources, in the schema’s key order, valid against the schema', () => {
    const changed = run(['providers/eks/function/fn.py', 'scenarios/converge.yaml', 'README.md']);
    const data = JSON.parse(renderJson(buildReport(['aks', 'eks', 'gke'], ['converge'], [], { sources: ['aks', 'eks', 'gke'], changed }))) as Record<string, Record<string, unknown>>;
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
    expect(Object.keys(data)).toEqual(['schemaVersion', 'tool', 'providers', 'scenarios', 'cells', 'sources', 'changed', 'findings', 'accepted', 'candidates', 'summary']);
    expect(Object.keys(data.changed!)).toEqual(['ref', 'base', 'run', 'rendered', 'files', 'ignored']);
    expect(data.changed).toEqual({ ref: 'main', base: BASE, run: 'full', rendered: ['aks', 'eks', 'gke'], files: [{ file: 'providers/eks/function/fn.py', kind: 'function', provider: 'eks' }, { file: 'scenarios/converge.yaml', kind: 'scenario' }], ignored: 1 });
    // A report without --changed has no such key.
    expect(Object.keys(JSON.parse(renderJson(buildReport(['eks'], ['converge'], []))) as object)).not.toContain('changed');
  });

  it('text: the sentence first; with nothing rendered, no matrix of empty columns', () => {
    const text = renderText(buildReport([], ['converge'], [], { sources: [], changed: run([]) }), { color: false });
    expect(text.split('\n')[0]).toBe('changed since main (0123456789ab): nothing drift reads changed; no provider rendered, every provider judged from its goldens');
    expect(text).not.toContain('scenario ');
    expect(text).toContain('0 providers × 1 scenario: no findings');
  });

  it('Markdown: names a pull request chose stay literal in code spans, or escaped', () => {
    const changed = { ...run(['providers/eks/function/<img src=x>@team #12.py']), ref: 'main<b>@team' };
    const markdown = renderMarkdown(buildReport(['eks'], ['converge'], [], { changed }));
    const line = markdown.split('\n').find((l) => l.startsWith('**Changed**'));
    expect(line).toBe('**Changed** since main&lt;b&gt;@\u200Bteam (0123456789ab): rendered: eks (`providers/eks/function/<img src=x>@team #12.py` changed); others from goldens');
  });
});
