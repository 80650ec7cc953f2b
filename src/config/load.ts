import type { Environment } from '../util/envVars.js';
import { LOCAL_POLICY, type Policy } from '../util/ci.js';
import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { DriftError, InputError } from '../errors.js';
import { checkName, isName, NAME_RULE } from './names.js';
import { isInside, outsideProblem, packageFile, rootsOf, type Roots } from './paths.js';
import { CONTRACT_ROLES } from '../roles/catalog.js';
import { EVERY_FACT, type Adapter, type DriftConfig, type Perturbation, type Project, type Scenario, type ScenarioPool } from './types.js';
import { loadXrd } from './xrd.js';
import { cachePolicy, type CachePolicy } from '../cache/policy.js';
import { CONFIG_FILE, projectRoot } from './projectRoot.js';
import { isSimpleGlob, isWild, simpleGlob } from './glob.js';
import { readIntentVerdict, writeIntentVerdict } from './intentVerdict.js';
import { useScalarCache } from './scalarCache.js';
import { readLocatedYamlFile, type Locator } from './yamlFile.js';
import { placeholdersIn } from './placeholders.js';

export { CONFIG_FILE };

const DEFAULTS = {
  providers: ['providers/*/provider.yaml'],
  scenarios: ['scenarios/*.yaml'],
  goldens: 'goldens',
  contract: 'providers',
  maxSteps: 8,
  timeouts: { startMs: 30_000, callMs: 10_000 },
};

type RawConfig = Partial<Omit<DriftConfig, 'providers' | 'scenarios' | 'root' | 'file'>> & {
  providers?: string | string[];
  scenarios?: string | string[];
  /** Retired: read only to say so. */
  reference?: unknown;
  roots?: string[];
};

/**
 * Finds the config: an explicit --config file, else drift.config.yaml in the working folder, else
 * defaults rooted at the working folder (so a repository laid out like drift's needs no config).
 */
export function loadConfig(configPath: string | undefined, cwd = process.cwd()): DriftConfig {
  return readConfig(configPath, cwd, undefined).config;
}

/** Where a key of drift.config.yaml is, for errors naming its line; the file's first line without one. */
type ConfigLocator = (path: ReadonlyArray<string | number>) => { file: string; line: number; col: number };

function readConfig(configPath: string | undefined, cwd: string, cache: CachePolicy | undefined): { config: DriftConfig; roots: Roots; at: ConfigLocator } {
  const file = configPath ? path.resolve(cwd, configPath) : path.join(cwd, CONFIG_FILE);
  if (configPath && !existsSync(file)) {
    throw new DriftError(`${configPath}: no such config file; pass the path of a drift.config.yaml`);
  }
  if (existsSync(file) && !statSync(file).isFile()) {
    const what = statSync(file).isDirectory() ? 'a folder' : 'not a regular file';
    throw new DriftError(`${configPath ?? file}: is ${what}, not a config file; pass the path of a drift.config.yaml`);
  }
  const { data: raw, locate } = existsSync(file) ? readLocatedYamlFile<RawConfig>(file, packageFile('schemas/drift-config.schema.json'), { cache }) : { data: {} as RawConfig, locate: undefined };
  if (raw.reference !== undefined && locate) {
    // An error, not a warning: a config that relied on the tie-break would otherwise get other findings silently.
    const { line, col } = locate(['reference']);
    throw new InputError(file, line, col, '"reference" is retired: no provider breaks ties any more (a facet without a convention is reported as a split, blaming nobody); remove this line');
  }
  const list = (value: string | string[] | undefined, fallback: string[]) =>
    value === undefined ? fallback : Array.isArray(value) ? value : [value];
  const at: ConfigLocator = (where) => ({ file, ...(locate ? locate(where) : { line: 1, col: 1 }) });
  const root = path.dirname(file);
  const roots = rootsOf(root, raw.roots);
  for (const key of ['goldens', 'contract'] as const) {
    const folder = raw[key];
    if (folder !== undefined && !isInside(roots, path.resolve(root, folder))) {
      const { line, col } = at([key]);
      throw new InputError(file, line, col, outsideProblem(roots, key, folder, path.resolve(root, folder)));
    }
  }
  const config: DriftConfig = {
    root,
    ...(existsSync(file) ? { file } : {}),
    ...(raw.roots ? { roots: raw.roots } : {}),
    providers: list(raw.providers, DEFAULTS.providers),
    scenarios: list(raw.scenarios, DEFAULTS.scenarios),
    goldens: raw.goldens ?? DEFAULTS.goldens,
    contract: raw.contract ?? DEFAULTS.contract,
    concurrency: raw.concurrency ?? availableParallelism(),
    maxSteps: raw.maxSteps ?? DEFAULTS.maxSteps,
    timeouts: { ...DEFAULTS.timeouts, ...raw.timeouts },
  };
  return { config, roots, at };
}

/**
 * `break-credentials` where the adapter does not say what unusable means: a credentials source that
 * is not a Secret (injected identity, which a control plane outside the cloud does not have).
 */
export const DEFAULT_BROKEN_CREDENTIALS = { spec: { credentials: { source: 'InjectedIdentity', secretRef: null } } };

type RawAdapter = {
  name: string;
  function: { command: string[]; cwd?: string; env?: Record<string, string>; passEnv?: string[] };
  xr: { apiVersion: string; kind: string; spec?: Record<string, unknown>; nodePool?: unknown; gpus?: Adapter['xr']['gpus']; ignore?: Record<string, string> };
  xrd?: string;
  world?: Partial<Adapter['world']>;
  roles?: Record<string, string>;
  inline?: Record<string, string>;
  values?: Record<string, string>;
  labelFields?: string[];
  source?: { root?: string; include?: string[] };
};

/** What an outline reads when the adapter does not say: every Python file under the function's folder. */
export const DEFAULT_SOURCE_INCLUDE = ['**/*.py'];

/** An adapter on its own: its paths must stay inside its own folder (in a project: the project's roots). */
export function loadAdapter(file: string, cache?: CachePolicy): Adapter {
  return readAdapter(file, rootsOf(path.dirname(file)), cache).adapter;
}

function readAdapter(file: string, roots: Roots, cache: CachePolicy | undefined): { adapter: Adapter; locate: Locator } {
  const { data: raw, locate } = readLocatedYamlFile<RawAdapter>(file, packageFile('schemas/provider.schema.json'), { cache });
  const inside = (where: string[], given: string | undefined, resolved: string, what: string) => {
    if (given === undefined || isInside(roots, resolved)) return;
    const { line, col } = locate(where);
    throw new InputError(file, line, col, outsideProblem(roots, what, given, resolved));
  };
  const dir = path.dirname(file);
  inside(['xrd'], raw.xrd, path.resolve(dir, raw.xrd ?? '.'), 'xrd');
  inside(['source', 'root'], raw.source?.root, path.resolve(dir, raw.source?.root ?? '.'), 'source.root');
  if (raw.source?.root === undefined) inside(['function', 'cwd'], raw.function.cwd ?? '.', path.resolve(dir, raw.function.cwd ?? '.'), 'function.cwd (the default source.root)');
  return { adapter: adapterFrom(file, raw, locate, cache), locate };
}

/** The XRD an adapter names, relative to the adapter, for the version its XR uses. */
function xrdOf(file: string, raw: RawAdapter, locate: Locator, cache: CachePolicy | undefined): Adapter['xrd'] {
  if (raw.xrd === undefined) return undefined;
  // Where the adapter names its XRD, found only for an error: locating parses the adapter again when it came from the cache.
  let position: { line: number; col: number } | undefined;
  const where = () => (position ??= locate(['xrd']));
  const named = {
    file,
    get line() {
      return where().line;
    },
    get col() {
      return where().col;
    },
  };
  const xrdFile = path.resolve(path.dirname(file), raw.xrd);
  if (!existsSync(xrdFile) || !statSync(xrdFile).isFile()) {
    throw new InputError(file, named.line, named.col, `xrd "${raw.xrd}" is not a file (resolved to ${xrdFile}); give the path of the XR's CompositeResourceDefinition, relative to this file`);
  }
  return loadXrd(xrdFile, raw.xr.apiVersion, raw.xr.kind, named, cache);
}

function adapterFrom(file: string, raw: RawAdapter, locate: Locator, cache: CachePolicy | undefined): Adapter {
  if (raw.xr.nodePool !== undefined) {
    const { line, col } = locate(['xr', 'nodePool']);
    throw new InputError(
      file,
      line,
      col,
      'xr.nodePool is no longer read: map the pools in xr.spec with CEL instead, e.g. nodePools: "${pools.map(p, {"name": p.name, ...})}", ' +
        'where "${pool.x}" becomes p.x and "${gpu.x}" gpus[p.gpu].x (drift docs/adapters.md, "The XR template")',
    );
  }
  const dir = path.dirname(file);
  const [program, ...args] = raw.function.command;
  // A program given as a path (../../.venv/bin/python) belongs to the adapter; a bare name is looked up on PATH.
  const resolvedProgram = program!.includes('/') ? path.resolve(dir, program!) : program!;
  return {
    name: raw.name,
    file,
    dir,
    function: { command: [resolvedProgram, ...args], cwd: path.resolve(dir, raw.function.cwd ?? '.'), env: raw.function.env ?? {}, passEnv: raw.function.passEnv ?? [] },
    xr: { apiVersion: raw.xr.apiVersion, kind: raw.xr.kind, spec: raw.xr.spec ?? {}, gpus: raw.xr.gpus ?? {}, ignore: raw.xr.ignore ?? {} },
    ...(raw.xrd === undefined ? {} : { xrd: xrdOf(file, raw, locate, cache) }),
    world: {
      credentials: raw.world?.credentials ?? [],
      observe: raw.world?.observe ?? [],
      brokenCredentials: raw.world?.brokenCredentials ?? DEFAULT_BROKEN_CREDENTIALS,
    },
    roles: raw.roles ?? {},
    inline: raw.inline ?? {},
    values: raw.values ?? {},
    ...(raw.labelFields ? { labelFields: raw.labelFields } : {}),
    ...placeholdersOf(raw, locate),
    source: {
      root: raw.source?.root !== undefined ? path.resolve(dir, raw.source.root) : path.resolve(dir, raw.function.cwd ?? '.'),
      include: raw.source?.include ?? DEFAULT_SOURCE_INCLUDE,
    },
  };
}

/** The draft's placeholders the adapter still holds, when it holds any. */
function placeholdersOf(raw: RawAdapter, locate: Locator): Pick<Adapter, 'placeholders'> {
  const found = placeholdersIn(raw, locate);
  return found.length ? { placeholders: found } : {};
}

type RawScenario = {
  description: string;
  xr: { name?: string; namespace?: string; credentials?: Scenario['xr']['credentials']; nodePools: ScenarioPool[] };
  world?: Partial<Scenario['world']>;
  then?: Array<Omit<Perturbation, 'steps'> & { steps?: number; at?: 'converged' }>;
  ablate?: boolean;
};

export function loadScenario(file: string, cache?: CachePolicy): Scenario {
  return readScenario(file, cache).scenario;
}

function readScenario(file: string, cache: CachePolicy | undefined): { scenario: Scenario; locate: Locator } {
  const { data: raw, locate } = readLocatedYamlFile<RawScenario>(file, packageFile('schemas/scenario.schema.json'), { cache });
  return { scenario: scenarioFrom(file, raw, locate), locate };
}

function scenarioFrom(file: string, raw: RawScenario, locate: Locator): Scenario {
  const world = { credentials: raw.world?.credentials ?? 'present', ready: raw.world?.ready ?? 'all' } as const;
  const then = (raw.then ?? []).map(({ at: _at, ...p }) => ({ ...p, steps: p.steps ?? 3 }));
  const names = new Set<string>();
  raw.xr.nodePools.forEach((pool, index) => {
    if (names.has(pool.name)) {
      const { line, col } = locate(['xr', 'nodePools', index, 'name']);
      throw new InputError(file, line, col, `node pool "${pool.name}" is listed twice; pool names must be unique`);
    }
    names.add(pool.name);
  });
  return {
    name: path.basename(file).replace(/\.ya?ml$/, ''),
    file,
    description: raw.description,
    xr: {
      name: raw.xr.name ?? 'demo',
      namespace: raw.xr.namespace ?? 'ml-team',
      ...(raw.xr.credentials ? { credentials: raw.xr.credentials } : {}),
      nodePools: raw.xr.nodePools,
    },
    world,
    then,
    ablate: raw.ablate ?? false,
  };
}

/**
 * The files the config's globs match. The glob never descends through a symlinked folder, and a
 * matched file whose real path lies outside the roots is an error naming the glob's line.
 */
async function expand(config: DriftConfig, roots: Roots, at: ConfigLocator, key: 'providers' | 'scenarios'): Promise<string[]> {
  const patterns = config[key];
  const files: string[] = [];
  for (const [index, pattern] of patterns.entries()) {
    // fast-glob is loaded only for a pattern drift's own expansion does not cover (glob.ts).
    const fg = isSimpleGlob(pattern) ? undefined : (await import('fast-glob')).default;
    const dynamic = fg ? (text: string) => fg.isDynamicPattern(text) : isWild;
    const base = path.resolve(config.root, dynamic(pattern) ? globParent(pattern, dynamic) : path.dirname(pattern));
    // Located only for an error: locating parses the config again when it came from the cache.
    const outside = (problem: string) => {
      const where = at(Array.isArray(config[key]) && patterns.length > 1 ? [key, index] : [key]);
      return new InputError(where.file, where.line, where.col, problem);
    };
    if (!isInside(roots, base)) throw outside(outsideProblem(roots, key, pattern, base));
    const matched = fg ? await fg(pattern, { cwd: config.root, absolute: true, onlyFiles: true, followSymbolicLinks: false }) : simpleGlob(pattern, config.root);
    for (const file of matched) {
      if (!isInside(roots, file)) throw outside(outsideProblem(roots, `${key} match`, path.relative(config.root, file), file));
      files.push(file);
    }
  }
  if (files.length === 0) {
    const where = config.file ?? config.root;
    throw new DriftError(`${where}: no ${key} match ${patterns.join(', ')}; check the "${key}" globs`);
  }
  return [...new Set(files)].sort();
}

/** The folder a glob starts from: its path up to the first segment with a wildcard. */
function globParent(pattern: string, isDynamic: (segment: string) => boolean): string {
  const segments = pattern.split('/');
  const dynamic = segments.findIndex((segment) => segment !== '' && isDynamic(segment));
  const fixed = segments.slice(0, dynamic < 0 ? -1 : dynamic);
  return fixed.join('/') || (pattern.startsWith('/') ? '/' : '.');
}

/**
 * Loads and validates everything a run needs before any process starts, so bad input changes nothing.
 * `env` is the environment drift runs in, handed down from the CLI edge: the functions start with it.
 * `policy` is what the run may write and how strict it is, resolved at that edge from the same
 * environment; without one, a checkout of one's own (LOCAL_POLICY). `cache` is the run's cache policy,
 * resolved at the edge (cache/policy.ts); absent: the environment's (DRIFT_NO_CACHE, DRIFT_CACHE_DIR).
 */
export async function loadProject(configPath: string | undefined, cwd = process.cwd(), env: Environment = {}, policy: Policy = LOCAL_POLICY, cache: CachePolicy = cachePolicy(projectRoot(configPath, cwd), env)): Promise<Project> {
  // How canonical YAML is written, from this run's cache: the one process-wide memo loading sets.
  useScalarCache(cache);
  const { config, roots, at } = readConfig(configPath, cwd, cache);
  const adapters = (await expand(config, roots, at, 'providers')).map((file) => readAdapter(file, roots, cache));
  const scenarios = (await expand(config, roots, at, 'scenarios')).map((file) => readScenario(file, cache));
  const seen = new Map<string, string>();
  for (const { adapter, locate } of adapters) {
    const other = seen.get(adapter.name);
    if (other) {
      const { line, col } = locate(['name']);
      throw new InputError(adapter.file, line, col, `provider name "${adapter.name}" is also used by ${other}; names must be unique`);
    }
    seen.set(adapter.name, adapter.file);
  }
  const scenarioFiles = new Map<string, string>();
  for (const { scenario } of scenarios) {
    if (!isName(scenario.name)) throw new InputError(scenario.file, 1, 1, `"${scenario.name}" (from the file name) is not a scenario name: ${NAME_RULE}; rename the file`);
    const other = scenarioFiles.get(scenario.name);
    if (other) {
      throw new InputError(scenario.file, 1, 1, `scenario name "${scenario.name}" (from the file name) is also used by ${other}; rename one of the files`);
    }
    scenarioFiles.set(scenario.name, scenario.file);
  }
  // Roles a scenario may name: the contract's and every role an adapter's `roles` map declares. A
  // cloud-only key's own role is unknowable before rendering, so a scenario cannot target one.
  const roles = new Set([...CONTRACT_ROLES, ...adapters.flatMap(({ adapter }) => [...Object.values(adapter.roles), ...Object.keys(adapter.inline)])]);
  const known = [...roles].sort().join(', ');
  // Facts a withdraw-fact may name: every adapter's declared cloud facts (a cloud without it is unaffected).
  const facts = new Set(adapters.flatMap(({ adapter }) => adapter.world.observe.map((rule) => rule.fact)));
  for (const { scenario, locate } of scenarios) {
    const unknown = (role: string, where: Array<string | number>, what: string) => {
      if (roles.has(role)) return;
      const { line, col } = locate(where);
      throw new InputError(scenario.file, line, col, `${what}: "${role}" is not a known role; use a contract role or one an adapter's roles map declares: ${known}`);
    };
    scenario.then.forEach((perturbation, index) => {
      if (perturbation.role !== undefined) unknown(perturbation.role, ['then', index, 'role'], `then.${index}.role`);
      if (perturbation.fact !== undefined && perturbation.fact !== EVERY_FACT && !facts.has(perturbation.fact)) {
        const { line, col } = locate(['then', index, 'fact']);
        throw new InputError(scenario.file, line, col, `then.${index}.fact: "${perturbation.fact}" is no adapter's cloud fact; use one an adapter's world.observe declares (${[...facts].sort().join(', ') || 'none'}), or ${EVERY_FACT} for all of them`);
      }
    });
    const ready = scenario.world.ready;
    if (typeof ready === 'object') ready.except.forEach((role, index) => unknown(role, ['world', 'ready', 'except', index], `world.ready.except.${index}`));
    for (const pool of scenario.xr.nodePools) {
      for (const { adapter, locate: locateAdapter } of adapters) {
        if (pool.gpu !== undefined && !(pool.gpu in adapter.xr.gpus)) {
          const { line, col } = locateAdapter(['xr', 'gpus']);
          throw new InputError(
            adapter.file,
            line,
            col,
            `scenario ${path.relative(config.root, scenario.file)} asks for GPU "${pool.gpu}", which xr.gpus does not map; add it`,
          );
        }
      }
    }
  }
  // The intent check evaluates every template and XRD rule, which costs more than the rest of
  // loading: an unchanged project's verdict (its warnings; a failing check is never kept) is reused.
  let warnings = readIntentVerdict(cache, config.root, adapters, scenarios);
  if (warnings === undefined) {
    const { checkIntent } = await import('./intentCheck.js');
    warnings = checkIntent(config.root, adapters, scenarios);
    writeIntentVerdict(cache, config.root, adapters, scenarios, warnings);
  }
  return { config, adapters: adapters.map(({ adapter }) => adapter), scenarios: scenarios.map(({ scenario }) => scenario), warnings, env, policy, cache };
}

/** The project with a run's `-j` (how many functions run at once) over the config's. The CLI's commands and `drift mcp` alike. */
export function withRunOptions(project: Project, { concurrency }: { concurrency?: number | undefined }): Project {
  if (concurrency === undefined) return project;
  return { ...project, config: { ...project.config, concurrency } };
}

/** Keeps the providers and scenarios a user's --provider / --scenario filters name; unknown names are errors. */
export function selectProject(project: Project, providers: string[] = [], scenarios: string[] = []): Project {
  const pick = <T extends { name: string }>(items: T[], wanted: string[], what: string): T[] => {
    if (wanted.length === 0) return items;
    for (const name of wanted) {
      checkName(name, what);
      if (!items.some((item) => item.name === name)) {
        throw new DriftError(`no ${what} named "${name}"; known: ${items.map((i) => i.name).join(', ')}`);
      }
    }
    return items.filter((item) => wanted.includes(item.name));
  };
  return { ...project, adapters: pick(project.adapters, providers, 'provider'), scenarios: pick(project.scenarios, scenarios, 'scenario') };
}
