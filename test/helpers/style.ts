/** Outlines of the style fixtures (test/fixtures/style/<name>), built as drift builds them: no processes. */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { StyleSubject } from '../../src/compare/style.js';
import type { Adapter } from '../../src/config/types.js';
import { outlineAdapter } from '../../src/outline/read.js';
import type { OutlineResult } from '../../src/outline/types.js';
import { mutate, REPO, replaceExactly } from './project.js';

export const STYLE = path.join(REPO, 'test/fixtures/style');

/** The three fixture providers written in one idiom, on three made-up clouds. */
export const HOUSE = ['alpha', 'beta', 'gamma'] as const;

/** The keys every fixture composes and the contract roles they play (a skeleton would say the same). */
export const FIXTURE_KEYS: ReadonlyMap<string, string> = new Map([
  ['network', 'network'],
  ['cluster', 'cluster'],
  ['nodepool-system', 'system-pool'],
  ['nodepool-gpu', 'node-pool'],
  ['provider-config-kubernetes', 'provider-config-kubernetes'],
]);

/** Only what outlining reads of an adapter. */
export function fixtureAdapter(name: string, include = ['**/*.py']): Adapter {
  const root = path.join(STYLE, name);
  return { name, file: path.join(root, 'provider.yaml'), source: { root, include } } as unknown as Adapter;
}

export async function fixtureOutline(name: string): Promise<OutlineResult> {
  const result = await outlineAdapter(fixtureAdapter(name));
  if (!result) throw new Error(`test/fixtures/style/${name} has no Python files`);
  return result;
}

export async function fixtureSubjects(names: readonly string[]): Promise<StyleSubject[]> {
  return Promise.all(
    names.map(async (name) => {
      const { outline, places } = await fixtureOutline(name);
      return { provider: name, outline, places, root: `test/fixtures/style/${name}`, keys: FIXTURE_KEYS };
    }),
  );
}

/**
 * Style seeds over the bundled providers: each a stylistic change of one provider's code, with the
 * style facet that must report it and the text whose first line is the seeded place. Every facet of
 * the registry (src/outline/styleFacets.ts) has at least one; the idiom differences removed from the
 * bundled five (EKS's section banners, staticmethod, label constants and helper placement; GKE's bare
 * annotations and unannotated SYSTEM_POOL) are seeded back. Seeds of one provider do not interact, so
 * each provider's seeds share one run.
 */
export interface StyleSeed {
  facet: string;
  provider: 'aks' | 'eks' | 'gke' | 'nebius' | 'vultr';
  /** What the seed does, in a reviewer's words. */
  drift: string;
  /** Edits of providers/<provider>/<file>, applied in order. */
  edits: Array<{ file: string; change: (text: string) => string }>;
  /** New files under providers/<provider>/. */
  files?: Record<string, string>;
  /** Where the seeded change is: the line that starts with `text` in `file` (after every edit). */
  at: { file: string; text: string };
}

const COMPOSER = 'function/composer.py';
/** Moves the defs from `start` up to (not including) `end` (or the end of the file) to just before `before` (or to the end of the file). */
const moveDefs = (text: string, start: string, end: string | undefined, before?: string): string => {
  const from = text.indexOf(start);
  const to = end === undefined ? text.length : text.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`moveDefs: ${JSON.stringify(start)} … ${JSON.stringify(end)} not found`);
  const block = text.slice(from, to);
  const rest = text.slice(0, from) + text.slice(to);
  if (before === undefined) return `${rest.trimEnd()}\n\n${block.trimEnd()}\n`;
  if (end === undefined) return `${rest.slice(0, rest.indexOf(before))}${block.trimEnd()}\n\n${rest.slice(rest.indexOf(before)).trimEnd()}\n`;
  const at = rest.indexOf(before);
  if (at < 0) throw new Error(`moveDefs: ${JSON.stringify(before)} not found`);
  return rest.slice(0, at) + block + rest.slice(at);
};
const edit = (change: (text: string) => string) => ({ file: COMPOSER, change });

export const STYLE_SEEDS: StyleSeed[] = [
  // aks
  {
    facet: 'composer',
    provider: 'aks',
    drift: 'the node-pool composer renamed',
    edits: [edit((t) => replaceExactly(replaceExactly(t, 'def compose_node_pools(self)', 'def compose_nodepools(self)'), 'self.compose_node_pools()', 'self.compose_nodepools()'))],
    at: { file: COMPOSER, text: '    def compose_nodepools(self)' },
  },
  {
    facet: 'helper-name',
    provider: 'aks',
    drift: 'the readiness helper renamed within snake_case',
    edits: [edit((t) => replaceExactly(t, '_observed_ready(', '_is_ready(', 2))],
    at: { file: COMPOSER, text: '    def _is_ready(' },
  },
  {
    facet: 'helper-presence',
    provider: 'aks',
    drift: 'a helper only AKS has: the credentials name read through a helper',
    edits: [
      edit((t) =>
        replaceExactly(
          t,
          '        return {"kind": self.credentials["kind"], "name": self.credentials["name"]}\n',
          '        return {"kind": self.credentials["kind"], "name": self._credentials_name()}\n\n    def _credentials_name(self) -> str:\n        """The name spec.credentials gives."""\n        return self.credentials["name"]\n',
        ),
      ),
    ],
    at: { file: COMPOSER, text: '    def _credentials_name(' },
  },
  {
    facet: 'annotations',
    provider: 'aks',
    drift: 'a bare dict annotation',
    edits: [edit((t) => replaceExactly(t, '    def _desire(self, key: str, body: dict[str, Any]) -> None:', '    def _desire(self, key: str, body: dict) -> None:'))],
    at: { file: COMPOSER, text: '    def _desire(' },
  },
  {
    facet: 'gate-placement',
    provider: 'aks',
    drift: 'the StorageClass gate moved from an early return to a condition on the write',
    edits: [
      edit((t) => {
        const gated = replaceExactly(t, '        if not resource_group:\n            return\n', '');
        return replaceExactly(gated, '                    "readiness": {"policy": "SuccessfulCreate"},\n                },\n            },\n        )\n', '                    "readiness": {"policy": "SuccessfulCreate"},\n                },\n            },\n        ) if resource_group else None\n');
      }),
    ],
    at: { file: COMPOSER, text: '        self._desire(\n            "storage-class-rwx"' },
  },
  // eks
  {
    facet: 'naming-style',
    provider: 'eks',
    drift: 'a camelCase constant',
    edits: [edit((t) => replaceExactly(t, 'VPC_CIDR', 'vpcCidr', 2))],
    at: { file: COMPOSER, text: 'vpcCidr = ' },
  },
  {
    facet: 'method-kinds',
    provider: 'eks',
    drift: 'the trust policy builder a staticmethod again',
    edits: [edit((t) => replaceExactly(t, '    def _assume_role_policy(self, service: str) -> str:', '    @staticmethod\n    def _assume_role_policy(service: str) -> str:'))],
    at: { file: COMPOSER, text: '    @staticmethod' },
  },
  {
    facet: 'comment-sections',
    provider: 'eks',
    drift: 'a section banner back between the defs',
    edits: [edit((t) => replaceExactly(t, '    def _cloud(\n', '    # --- helpers ----------------------------------------------------------------------------------\n\n    def _cloud(\n'))],
    at: { file: COMPOSER, text: '    # --- helpers' },
  },
  {
    facet: 'helper-placement',
    provider: 'eks',
    drift: 'the node-pool builders at the end of the class again',
    edits: [edit((t) => moveDefs(t, '    def _node_pool(self', '    def compose_filesystem('))],
    at: { file: COMPOSER, text: '    def _node_pool(self' },
  },
  {
    facet: 'constant-literal',
    provider: 'eks',
    drift: 'the pool label a constant again where the others write it',
    edits: [edit((t) => replaceExactly(replaceExactly(t, 'ZONE_LABEL = "modelplane.ai/zone"\n', 'ZONE_LABEL = "modelplane.ai/zone"\nPOOL_LABEL = "modelplane.ai/pool"\n'), 'labels = {"modelplane.ai/pool": pool["name"]}', 'labels = {POOL_LABEL: pool["name"]}'))],
    at: { file: COMPOSER, text: 'POOL_LABEL = ' },
  },
  {
    facet: 'type-alias',
    provider: 'eks',
    drift: 'a type alias the others write out',
    edits: [edit((t) => replaceExactly(replaceExactly(t, '\n\nclass InvalidSpecError', '\nBody = dict[str, Any]\n\n\nclass InvalidSpecError'), '    def _desire(self, key: str, body: dict[str, Any]) -> None:', '    def _desire(self, key: str, body: Body) -> None:'))],
    at: { file: COMPOSER, text: 'Body = ' },
  },
  // gke
  {
    facet: 'readiness-shape',
    provider: 'gke',
    drift: 'a special case on the cluster inside the readiness loop',
    edits: [edit((t) => replaceExactly(t, '            if key in READY_WHEN_COMPOSED or self._observed_ready(key):\n', '            if key == "cluster" and not self._observed_ready(key):\n                continue\n            if key in READY_WHEN_COMPOSED or self._observed_ready(key):\n'))],
    at: { file: COMPOSER, text: '            if key == "cluster"' },
  },
  {
    facet: 'module',
    provider: 'gke',
    drift: '_credentials_ref moved to a module of its own',
    edits: [
      edit((t) => {
        const start = t.indexOf('    def _credentials_ref(self)');
        const moved = t.slice(0, start) + t.slice(t.indexOf('    def _zones(', start));
        return replaceExactly(replaceExactly(moved, 'self._credentials_ref()', 'refs._credentials_ref(self.credentials)'), 'from crossplane.function.proto.v1 import run_function_pb2 as fnv1\n', 'from crossplane.function.proto.v1 import run_function_pb2 as fnv1\n\nfrom function import refs\n');
      }),
    ],
    files: { 'function/refs.py': '"""References to the XR\'s credentials."""\n\n\ndef _credentials_ref(credentials: dict[str, str]) -> dict[str, str]:\n    """The providerConfigRef that spec.credentials names."""\n    return {"kind": credentials["kind"], "name": credentials["name"]}' },
    at: { file: 'function/refs.py', text: 'def _credentials_ref(' },
  },
  {
    facet: 'layout',
    provider: 'gke',
    drift: 'a module the others do not have',
    edits: [],
    at: { file: 'function/refs.py', text: '"""References' },
  },
  {
    facet: 'constant-annotation',
    provider: 'gke',
    drift: 'SYSTEM_POOL without its annotation again',
    edits: [edit((t) => replaceExactly(t, 'SYSTEM_POOL: dict[str, Any] = {', 'SYSTEM_POOL = {'))],
    at: { file: COMPOSER, text: 'SYSTEM_POOL = ' },
  },
  // nebius
  {
    facet: 'idiom',
    provider: 'nebius',
    drift: 'a composed resource written through its own update method',
    edits: [edit((t) => replaceExactly(t, 'resource.update(self.rsp.desired.resources[key], body)', 'self.rsp.desired.resources[key].resource.update(body)'))],
    at: { file: COMPOSER, text: '        self.rsp.desired.resources[key].resource.update(body)' },
  },
  {
    facet: 'helper-signature',
    provider: 'nebius',
    drift: '_desire takes extra positional arguments',
    edits: [edit((t) => replaceExactly(t, '    def _desire(self, key: str, body: dict[str, Any]) -> None:', '    def _desire(self, key: str, body: dict[str, Any], *_extra: Any) -> None:'))],
    at: { file: COMPOSER, text: '    def _desire(' },
  },
  {
    facet: 'def-order',
    provider: 'nebius',
    drift: 'a shared helper between the entry point and the role composers',
    edits: [edit((t) => moveDefs(t, '    def _desire(self', undefined, '    def require_credentials(self)'))],
    at: { file: COMPOSER, text: '    def _desire(' },
  },
  {
    facet: 'constant-name',
    provider: 'nebius',
    drift: 'the StorageClass constant with a cloud prefix',
    edits: [edit((t) => replaceExactly(t, 'STORAGE_CLASS', 'NEBIUS_STORAGE_CLASS', 3))],
    at: { file: COMPOSER, text: 'NEBIUS_STORAGE_CLASS = ' },
  },
  {
    facet: 'docstrings',
    provider: 'nebius',
    drift: 'a role composer without its docstring',
    edits: [edit((t) => replaceExactly(t, '        """A dedicated VPC network and the subnet the control plane and nodes live in."""\n', ''))],
    at: { file: COMPOSER, text: '    def compose_network(' },
  },
  // vultr
  {
    facet: 'helper-docstring',
    provider: 'vultr',
    drift: 'the readiness helper without its docstring',
    edits: [edit((t) => replaceExactly(t, '        """Whether the observed resource reports condition Ready=True."""\n', ''))],
    at: { file: COMPOSER, text: '    def _observed_ready(' },
  },
  {
    facet: 'helper-visibility',
    provider: 'vultr',
    drift: 'the node-pool builder public',
    edits: [edit((t) => replaceExactly(replaceExactly(t, 'self._node_pool(', 'self.node_pool('), '    def _node_pool(self', '    def node_pool(self'))],
    at: { file: COMPOSER, text: '    def node_pool(self' },
  },
  {
    facet: 'data-shape',
    provider: 'vultr',
    drift: 'the credentials reference a TypedDict where the others return a dict',
    edits: [
      edit((t) =>
        replaceExactly(
          replaceExactly(t, 'from typing import Any\n', 'from typing import Any, TypedDict\n'),
          '\n\nclass InvalidSpecError',
          '\n\nclass CredentialsRef(TypedDict):\n    """A providerConfigRef."""\n\n    kind: str\n    name: str\n\n\nclass InvalidSpecError',
        ).replace('    def _credentials_ref(self) -> dict[str, str]:', '    def _credentials_ref(self) -> CredentialsRef:'),
      ),
    ],
    at: { file: COMPOSER, text: '    def _credentials_ref(' },
  },
];

/** Applies the seeds to the copy at `dir`, formatting what they touch in the house style. */
export function applyStyleSeeds(dir: string, seeds: readonly StyleSeed[]): void {
  const touched = new Set<string>();
  for (const seed of seeds) {
    for (const { file, change } of seed.edits) {
      mutate(dir, seed.provider, file, change);
      touched.add(path.join(dir, 'providers', seed.provider, file));
    }
    for (const [file, text] of Object.entries(seed.files ?? {})) {
      writeFileSync(path.join(dir, 'providers', seed.provider, file), text);
      touched.add(path.join(dir, 'providers', seed.provider, file));
    }
  }
  const format = spawnSync(path.join(REPO, '.venv/bin/ruff'), ['format', '--quiet', ...touched]);
  if (format.status !== 0) throw new Error(`ruff format of the seeded files failed:\n${String(format.stderr)}`);
}

/** The 1-based line of a seed's place in the seeded copy. */
export function seedLine(dir: string, seed: StyleSeed): number {
  const text = readFileSync(path.join(dir, 'providers', seed.provider, seed.at.file), 'utf8');
  const index = text.indexOf(seed.at.text);
  if (index < 0) throw new Error(`seed ${seed.provider}/${seed.facet}: ${JSON.stringify(seed.at.text)} not found in ${seed.at.file}`);
  return text.slice(0, index).split('\n').length;
}

/**
 * The Python names (defs, classes, module-level constants) written in `texts`, read with a regular
 * expression rather than drift's outline, so that a hint test does not take the outliner's word.
 */
export function pythonNames(texts: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const text of texts) {
    for (const match of text.matchAll(/^\s*(?:async\s+)?def\s+(\w+)|^\s*class\s+(\w+)|^([A-Za-z_]\w*)\s*(?::[^=\n]+)?=(?!=)/gm)) out.add((match[1] ?? match[2] ?? match[3])!);
  }
  return out;
}

/** Every `.py` file's text under `root` (a provider's folder), skipping caches. */
export function pythonTexts(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '__pycache__' || entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.py')) out.push(readFileSync(full, 'utf8'));
    }
  };
  walk(root);
  return out;
}

/**
 * The names a hint cites that some provider defines (`names`) and the judged provider's source does
 * not hold at all (`own`, its files' texts). The `drift accept '<id>'` command is left out: an id is a
 * handle, not advice.
 */
export function foreignNames(hint: string, names: ReadonlySet<string>, own: readonly string[]): string[] {
  const advice = hint.replace(/drift accept '[^']*'/g, '');
  return [...new Set(advice.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [])].filter((word) => names.has(word) && !own.some((text) => new RegExp(`\\b${word}\\b`).test(text)));
}
