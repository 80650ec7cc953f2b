/**
 * `drift diff --changed`: which providers a change needs rendered. A changed file is a provider's own
 * (its adapter, its XRD, its function's folders, its goldens), or something every provider's result
 * depends on (a scenario, the config, accepted entries and conventions, the providers' shared files,
 * drift itself), or nothing drift reads. The classification is pure; git runs in src/git/.
 */
import path from 'node:path';
import { CONTRACT_FILES } from '../report/contract/contractModel.js';
import { minimatch } from 'minimatch';
import { CONFIG_FILE, selectProject } from '../config/load.js';
import { packageFile } from '../config/paths.js';
import type { Adapter, Project } from '../config/types.js';
import { changesSince } from '../git/changes.js';
import { RUFF_CONFIG_NAMES } from '../outline/formatter.js';
import type { ChangedFile, ChangedRun, ChangeKind } from '../report/model.js';
import { compareText } from '../util/objects.js';
import type { Filters } from './goldens.js';

/** Package manifests and lockfiles: one that changes may change the drift that runs. */
const MANIFESTS = new Set(['package.json', 'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml']);
/** What drift runs from, in a checkout of drift itself (relative to its package folder). */
const DRIFT_OWN = ['bin/', 'dist/', 'schemas/', 'src/', 'package.json', 'package-lock.json'];
/** Ruff's configuration files: one in any folder above a provider's code applies to it. */
const RUFF_CONFIGS = new Set<string>(RUFF_CONFIG_NAMES);

const inside = (folder: string, file: string) => file === folder || file.startsWith(folder.endsWith(path.sep) ? folder : `${folder}${path.sep}`);
const posix = (relative: string) => relative.split(path.sep).join('/');

/** A provider's own folders: its adapter's, its function's working folder and its source root. */
function foldersOf(adapter: Adapter): string[] {
  return [...new Set([adapter.dir, adapter.function.cwd, adapter.source?.root ?? adapter.function.cwd])];
}

/** The extensions of the files a provider's source globs name (`**\/*.py` → `.py`): code in that language anywhere may be imported. */
function sourceExtensions(adapters: Adapter[]): Set<string> {
  const out = new Set<string>(['.py']);
  for (const adapter of adapters) for (const glob of adapter.source?.include ?? []) {
    const match = /\.([A-Za-z0-9]+)$/.exec(glob);
    if (match) out.add(`.${match[1]!}`);
  }
  return out;
}

interface Classifier {
  project: Project;
  /** The folder of the running drift's package.json. */
  driftRoot: string;
  /** The checkout's top folder. */
  top: string;
}

type Classified = { kind: ChangeKind; provider?: string } | undefined;

/** Why one changed file (absolute) matters, or undefined when drift reads nothing from it. */
function classify(file: string, { project, driftRoot, top }: Classifier): Classified {
  const { config, adapters } = project;
  const relative = posix(path.relative(config.root, file));
  if (file === config.file || file === path.join(config.root, CONFIG_FILE)) return { kind: 'config' };

  const goldens = path.resolve(config.root, config.goldens);
  if (inside(goldens, file)) {
    const [first, ...rest] = posix(path.relative(goldens, file)).split('/');
    if (rest.length === 0 && first === 'accepted.yaml') return { kind: 'accepted' };
    if (rest.length === 0 && first === 'conventions.yaml') return { kind: 'conventions' };
    // A provider's goldens are what it is judged against: render it. Any other file there (a golden
    // of a provider that is gone) is judged only by a full run.
    const owner = rest.length > 0 ? adapters.find((adapter) => adapter.name === first) : undefined;
    return owner ? { kind: 'golden', provider: owner.name } : { kind: 'golden' };
  }

  if (project.scenarios.some((scenario) => scenario.file === file) || config.scenarios.some((glob) => minimatch(path.isAbsolute(glob) ? file : relative, glob))) return { kind: 'scenario' };

  // A checkout of drift itself: its own code is what renders and judges every provider.
  if (inside(top, driftRoot) && inside(driftRoot, file)) {
    const own = posix(path.relative(driftRoot, file));
    if (DRIFT_OWN.some((entry) => (entry.endsWith('/') ? own.startsWith(entry) : own === entry))) return { kind: 'drift' };
  }

  // Named by the adapter: its file and its XRD, each the provider's own unless several share it.
  const named = (kind: 'adapter' | 'xrd', of: (adapter: Adapter) => string | undefined): Classified => {
    const owners = adapters.filter((adapter) => of(adapter) === file);
    if (owners.length === 1) return { kind, provider: owners[0]!.name };
    return owners.length > 1 ? { kind: 'shared' } : undefined;
  };
  const byName = named('adapter', (adapter) => adapter.file) ?? named('xrd', (adapter) => adapter.xrd?.file);
  if (byName) return byName;

  // In a provider's folders: the deepest folder that holds the file decides; one claimed by several
  // providers at once is shared.
  let depth = -1;
  let owners = new Set<string>();
  for (const adapter of adapters) {
    for (const folder of foldersOf(adapter)) {
      if (!inside(folder, file)) continue;
      if (folder.length > depth) [depth, owners] = [folder.length, new Set([adapter.name])];
      else if (folder.length === depth) owners.add(adapter.name);
    }
  }
  if (owners.size === 1) return { kind: 'function', provider: [...owners][0]! };
  if (owners.size > 1) return { kind: 'shared' };

  // drift writes the contract from what it judges; a stale one is a finding of every run, however
  // little it renders.
  const contractFolder = path.resolve(config.root, config.contract);
  if (Object.values(CONTRACT_FILES).some((generated) => path.join(contractFolder, generated) === file)) return undefined;

  const name = path.basename(file);
  if (MANIFESTS.has(name)) return { kind: 'drift' };
  const folders = adapters.flatMap(foldersOf);
  // The folder that holds the providers' folders (providers/): requirements, ruff.toml, a shared
  // module. Only inside the project: a project root holding provider folders would make everything shared.
  const holders = new Set(adapters.map((adapter) => path.dirname(adapter.dir)).filter((holder) => holder !== config.root && inside(config.root, holder)));
  if ([...holders].some((holder) => inside(holder, file))) return { kind: 'shared' };
  if (RUFF_CONFIGS.has(name) && folders.some((folder) => inside(path.dirname(file), folder))) return { kind: 'shared' };
  if (sourceExtensions(adapters).has(path.extname(file))) return { kind: 'shared' };
  return undefined;
}

/**
 * The changed files that matter, and the run they call for: full when any of them can change every
 * provider's result (or every provider's own files changed), partial when only some providers' own
 * files did, none when nothing drift reads changed. Pure.
 */
export function changedRun(project: Project, changes: { top: string; ref: string; base: string; paths: string[] }, driftRoot = path.resolve(packageFile(''))): ChangedRun {
  const classifier: Classifier = { project, driftRoot, top: changes.top };
  const files: ChangedFile[] = [];
  let ignored = 0;
  for (const relative of changes.paths) {
    const file = path.join(changes.top, relative);
    const why = classify(file, classifier);
    if (!why) ignored += 1;
    else files.push({ file: posix(path.relative(project.config.root, file)), ...why });
  }
  files.sort((a, b) => compareText(a.file, b.file));
  const changed = new Set(files.flatMap((entry) => (entry.provider ? [entry.provider] : [])));
  const all = project.adapters.map((adapter) => adapter.name);
  const full = files.some((entry) => entry.provider === undefined) || all.every((name) => changed.has(name));
  const rendered = full ? all : all.filter((name) => changed.has(name));
  return { ref: changes.ref, base: changes.base, run: full ? 'full' : rendered.length ? 'partial' : 'none', rendered, files, ignored };
}

/** What changed since the merge base of HEAD with `ref` (default: the default branch), in the checkout holding the project. */
export async function findChanged(project: Project, ref?: string): Promise<ChangedRun> {
  return changedRun(project, await changesSince(project.config.root, ref, project.env));
}

/**
 * The selection a changed run renders: exactly `changed.rendered` (none at all included), over the
 * scenarios the filter names. The others stand in through their goldens, as with --provider.
 */
export function selectChanged(full: Project, changed: ChangedRun, scenarios: string[]): { project: Project; filters: Filters } {
  const selected = selectProject(full, [], scenarios);
  if (changed.run === 'full') return { project: selected, filters: { providers: [], scenarios } };
  const rendered = new Set(changed.rendered);
  return { project: { ...selected, adapters: selected.adapters.filter((adapter) => rendered.has(adapter.name)) }, filters: { providers: changed.rendered, scenarios, exact: true } };
}
