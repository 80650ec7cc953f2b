// drift's layers, checked by `npm run layers` (part of `npm test`) over the TypeScript sources.
// dependency-cruiser reads them with swc: the project's TypeScript 7 has no compiler API it can use,
// and swc keeps `import type` lines, which the compiled dist/ would have lost.
//
// A layer may import itself and the layers listed after `may`; nothing else under src/. docs/architecture.md's
// "Layers" section explains the table; change both together.

/** Folders (or files) of each layer, as path patterns relative to the repository. */
const LAYERS = {
  base: '^src/(util/|errors\\.ts$)',
  // The project's one atomic writer, which the cache module writes through too.
  writer: '^src/goldens/atomicFile\\.ts$',
  // drift's caches: their folder, policy, one entry reader and writer, one pruner.
  cache: '^src/cache/',
  config: '^src/config/',
  // What a composed resource is in the contract: its role and its plane (cloud, in-cluster, neither).
  roles: '^src/roles/',
  // Every facet drift compares, with its meta and its extractor (over skeletons or outlines).
  facets: '^src/facets/',
  // The providers' source outline: pure but for its edges (read.ts, grammar.ts, formatter.ts).
  outline: '^src/outline/',
  world: '^src/world/',
  skeleton: '^src/skeleton/',
  compare: '^src/compare/',
  report: '^src/report/',
  // Function processes, their watchdog and the gRPC client.
  functions: '^src/functions/',
  goldens: '^src/goldens/',
  github: '^src/github/',
  // The checkout's history, for `drift diff --changed`: the only module that runs git.
  git: '^src/git/',
  pipeline: '^src/pipeline/',
  // drift mcp's server: the commands' pipeline behind the Model Context Protocol.
  mcp: '^src/mcp/',
  cli: '^src/cli/',
};

/** Which layers each layer may import, besides itself. */
const MAY_IMPORT = {
  base: [],
  writer: [],
  cache: ['base', 'writer'],
  config: ['base', 'roles', 'cache'],
  roles: ['base'],
  facets: ['base', 'config', 'roles', 'outline', 'skeleton'],
  outline: ['base', 'cache', 'writer', 'config'],
  world: ['base', 'config', 'roles'],
  skeleton: ['base', 'config', 'roles', 'world'],
  compare: ['base', 'config', 'roles', 'facets', 'outline', 'world', 'skeleton'],
  report: ['base', 'config', 'facets', 'compare'],
  functions: ['base', 'cache', 'writer', 'config', 'world'],
  goldens: ['base', 'cache', 'writer', 'config', 'outline', 'skeleton', 'compare'],
  github: ['base', 'config', 'report'],
  git: ['base'],
  pipeline: ['base', 'cache', 'writer', 'config', 'roles', 'facets', 'outline', 'world', 'skeleton', 'compare', 'report', 'functions', 'goldens', 'github', 'git'],
  mcp: ['base', 'cache', 'writer', 'config', 'roles', 'facets', 'outline', 'world', 'skeleton', 'compare', 'report', 'functions', 'goldens', 'github', 'git', 'pipeline'],
  cli: ['base', 'cache', 'writer', 'config', 'roles', 'facets', 'outline', 'world', 'skeleton', 'compare', 'report', 'functions', 'goldens', 'github', 'git', 'pipeline', 'mcp'],
};

// The edges: the only modules that spawn processes or touch the file system. Everything else takes
// and returns data, so it is tested without processes or temp folders. Add a module here only when
// it is where that effect belongs (a new store, a new process runner), never to silence the check.

/** Start, probe and stop the provider functions (processes and their private socket folders), and keep them between drift mcp's calls, their sources watched (pool.ts). */
const FUNCTION_PROCESSES = ['^src/functions/process\\.ts$', '^src/functions/reaper\\.ts$', '^src/functions/watchdog\\.ts$', '^src/functions/pool\\.ts$'];

/** The persistent caches: answers (their files, the source tree and Python environment the key hashes), analysed cells, outlines with ruff's reports, and judged reports (their key hashes every golden file). */
const ANSWER_CACHE = ['^src/cache/(entry|folder|prune)\\.ts$', '^src/pipeline/diffVerdict\\.ts$', '^src/functions/answerCache\\.ts$', '^src/functions/answerKey\\.ts$', '^src/pipeline/cellCache\\.ts$', '^src/pipeline/sourceCache\\.ts$'];

/** Read drift.config.yaml, adapters, scenarios and XRDs, expand their globs, and resolve their paths (symlinks); the cache folder, compiled XRD validators and parsed documents: config's only impure parts. */
const CONFIG_READERS = ['^src/config/load\\.ts$', '^src/config/paths\\.ts$', '^src/config/yamlFile\\.ts$', '^src/config/xrd\\.ts$', '^src/config/validatorCache\\.ts$', '^src/config/documentCache\\.ts$', '^src/config/glob\\.ts$'];

/** The golden and accepted stores (goldens/<provider>/<scenario>.yaml, goldens/accepted.yaml), the one atomic writer of every file drift writes and the sweep of what killed writes left. */
const STORES = ['^src/goldens/store\\.ts$', '^src/goldens/acceptedStore\\.ts$', '^src/goldens/atomicFile\\.ts$', '^src/goldens/leftovers\\.ts$'];

/** drift mcp reads the contract, adapters and excerpts of the providers' source it answers with. */
const MCP_READERS = ['^src/mcp/projectFiles\\.ts$'];

/** CLI input and output: reports written with --output, reports read by `drift comment`, accepted.yaml edits, a drafted adapter, --version; and drift's compiled-code cache (codeCache.ts). */
const CLI_OUTPUT = ['^src/cli/codeCache\\.ts$', '^src/cli/diffCommand\\.ts$', '^src/cli/commentCommand\\.ts$', '^src/cli/acceptCommand\\.ts$', '^src/cli/newProviderCommand\\.ts$', '^src/cli/main\\.ts$'];

/** The source outline's edges: the provider's files, the grammar's wasm, the formatter (ruff). */
const OUTLINE_READERS = ['^src/outline/read\\.ts$', '^src/outline/grammar\\.ts$', '^src/outline/formatter\\.ts$'];
/** The formatter runs ruff over the provider's files. */
const OUTLINE_SPAWNERS = ['^src/outline/formatter\\.ts$'];

/** `drift diff --changed` asks git what changed since a commit. */
const GIT = ['^src/git/changes\\.ts$'];

const SPAWNERS = [...FUNCTION_PROCESSES, ...OUTLINE_SPAWNERS, ...GIT];
const FILE_SYSTEM = [...FUNCTION_PROCESSES, ...ANSWER_CACHE, ...CONFIG_READERS, ...STORES, ...CLI_OUTPUT, ...OUTLINE_READERS, ...MCP_READERS];

/** The pure cores: data in, data out. */
const PURE_CORES = ['roles', 'facets', 'outline', 'world', 'skeleton', 'compare', 'report'].map((layer) => LAYERS[layer]);

const either = (patterns) => `(${patterns.join('|')})`;

const layerRules = Object.entries(MAY_IMPORT).map(([layer, below]) => ({
  name: `layer-${layer}`,
  comment: below.length ? `${layer} may import only ${below.join(', ')} (and itself)` : `${layer} imports nothing else in src/`,
  severity: 'error',
  from: { path: LAYERS[layer] },
  to: { path: '^src/', pathNot: either([layer, ...below].map((name) => LAYERS[name])) },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-layer',
      comment: 'every module under src/ belongs to a layer: add its folder to LAYERS in .dependency-cruiser.cjs',
      severity: 'error',
      from: { path: '^src/', pathNot: either(Object.values(LAYERS)) },
      to: {},
    },
    {
      name: 'no-circular',
      comment: 'modules import each other in a circle',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'spawn-only-in-edges',
      comment: `only ${SPAWNERS.join(', ')} start processes`,
      severity: 'error',
      from: { pathNot: either(SPAWNERS) },
      to: { path: '^(node:)?child_process$|^node_modules/execa/' },
    },
    {
      name: 'file-system-only-in-edges',
      comment: 'only the edge modules listed in .dependency-cruiser.cjs read or write files',
      severity: 'error',
      from: { pathNot: either(FILE_SYSTEM) },
      to: { path: '^(node:)?fs(/promises)?$|^node_modules/fast-glob/' },
    },
    {
      name: 'pure-cores-stay-pure',
      comment: 'roles, facets, outline (but for its edges), world, skeleton, compare and report take data and return data: no files, no processes',
      severity: 'error',
      from: { path: either(PURE_CORES), pathNot: either(OUTLINE_READERS) },
      to: { path: '^(node:)?(fs|fs/promises|child_process)$|^node_modules/(execa|fast-glob)/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'an import that resolves to nothing',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^(src/|node_modules/|(node:)?[a-z_/]+$)',
  },
};
