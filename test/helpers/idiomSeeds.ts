/**
 * Every style seed of the seed suite (test/helpers/style.ts STYLE_SEEDS, one per source facet) written
 * for each idiom of test/fixtures/style-idioms: the same stylistic drift expressed in that fixture's
 * own code, its names and structure (the node-pool composer renamed is `compose_node_pools` in classy,
 * `set_pools` in selfreq, `add_node_pools` in reqparam). Where an idiom has no such construct at all,
 * or a facet does not see the idiom's version of it yet, the seed is excluded for it with the reason,
 * as data (EXCLUDED). Outlines only: no processes.
 */
import { replaceExactly } from './project.js';

export const IDIOMS = ['classy', 'hybrid', 'modular', 'reqparam', 'selfreq', 'stateful'] as const;
export type Idiom = (typeof IDIOMS)[number];

export const COMPOSER = 'function/composer.py';

export interface Planting {
  files: Map<string, string>;
  /** The seeded place: the line where `text` first occurs in `file` (after the edit). */
  at: { file: string; text: string };
  /** Other facets the same edit changes by nature (a new module is also a layout change). */
  also?: string[];
}

type Files = ReadonlyMap<string, string>;
type Plant = (files: Files) => Planting | undefined;

export interface IdiomSeed {
  facet: string;
  drift: string;
  /** Written once, found by what the code does: it plants into any idiom that has the thing it changes. */
  generic?: Plant;
  /** Idiom by idiom, where the generic edit finds nothing to change; an idiom with neither is in EXCLUDED. */
  plant: Partial<Record<Idiom, Plant>>;
  /** Facets the same change moves by nature, wherever it is planted (a renamed constant is also a name). */
  also?: string[];
}

/** The seed's planting into `idiom`: its own version, else the generic edit; undefined where excluded. */
export const plantingOf = (seed: IdiomSeed, idiom: Idiom, files: Files): Planting | undefined => (seed.plant[idiom] ?? seed.generic)?.(files);

const words = (name: string) => new RegExp(`\\b${name}\\b`, 'g');
const withFile = (files: Files, file: string, text: string) => new Map([...files, [file, text]]);
/** The composer edited by `change`, the seed at the line starting with `at`. */
const composer =
  (change: (text: string) => string, at: string, also?: string[]): Plant =>
  (files) => ({ files: withFile(files, COMPOSER, change(files.get(COMPOSER)!)), at: { file: COMPOSER, text: at }, ...(also ? { also } : {}) });
/** A helper moved to a module of its own: the composer edited, the new module written. */
const moved =
  (change: (text: string) => string, file: string, text: string, at: string): Plant =>
  (files) => ({ files: new Map([...files, [COMPOSER, change(files.get(COMPOSER)!)], [file, text]]), at: { file, text: at }, also: ['layout'] });
const rename = (from: string, to: string) => (text: string) => {
  if (!words(from).test(text)) throw new Error(`rename: ${from} not found`);
  return text.replace(words(from), to);
};
/** Shifts every line of `block` by `by` spaces (negative: to the left). */
const shift = (block: string, by: number) => block.replace(/^.*$/gm, (line) => (line.trim() === '' ? line : by > 0 ? ' '.repeat(by) + line : line.slice(-by)));
/** `text` with the part from `start` up to (not including) `end` run through `change`. */
const within = (text: string, start: string, end: string, change: (part: string) => string) => {
  const from = text.indexOf(start);
  const to = text.indexOf(end, from + start.length);
  if (from < 0 || to < 0) throw new Error(`within: ${JSON.stringify(start)} … ${JSON.stringify(end)} not found`);
  return text.slice(0, from) + change(text.slice(from, to)) + text.slice(to);
};
/** Moves the def from `start` up to `end` (or the end of the file) to just before `before`. */
const moveDef = (text: string, start: string, end: string | undefined, before: string) => {
  const from = text.indexOf(start);
  const to = end === undefined ? text.length : text.indexOf(end, from + start.length);
  if (from < 0 || to < 0) throw new Error(`moveDef: ${JSON.stringify(start)} not found`);
  const block = `${text.slice(from, to).trimEnd()}\n\n`;
  let rest = (text.slice(0, from) + text.slice(to)).replace(/\n{4,}/g, '\n\n\n');
  if (end === undefined) rest = `${rest.trimEnd()}\n`;
  const at = rest.indexOf(before);
  if (at < 0) throw new Error(`moveDef: ${JSON.stringify(before)} not found`);
  return rest.slice(0, at) + block + rest.slice(at);
};
/** Inserts `insert` before the first top-level class, def or decorator. */
const beforeFirstDef = (text: string, insert: string) => {
  const at = /^(?:class |def |@)/m.exec(text)!.index;
  return text.slice(0, at) + insert + text.slice(at);
};
const TYPED_DICT = 'class Resource(TypedDict):\n    """A composed resource body."""\n\n    apiVersion: str\n    kind: str\n    spec: dict[str, Any]\n\n\n';
const BANNER = '# --- helpers ----------------------------------------------------------------------------------\n\n';

/** The def whose body holds line `index` (0-based) of `lines`: the nearest def above at a lower indent. */
function defAbove(lines: readonly string[], index: number): number {
  const indent = /^\s*/.exec(lines[index]!)![0].length;
  for (let at = index - 1; at >= 0; at--) if (/^\s*(?:async\s+)?def /.test(lines[at]!) && /^\s*/.exec(lines[at]!)![0].length < indent) return at;
  return -1;
}
/** Drops the one-line docstring right under the def at `at`; undefined when it has none. */
function withoutDocstring(text: string, at: number): string | undefined {
  const lines = text.split('\n');
  let body = at + 1;
  while (body < lines.length && !lines[body - 1]!.trimEnd().endsWith(':')) body++;
  if (!/^\s*"""[^"]*"""\s*$/.test(lines[body] ?? '')) return undefined;
  return [...lines.slice(0, body), ...lines.slice(body + 1)].join('\n');
}
/** The line index of the def writing desired resources (`resource.update(<x>.desired.resources[key], ...)`). */
const writerDef = (lines: readonly string[]) => {
  const write = lines.findIndex((line) => /resource\.update\([\w.]+\.desired\.resources\[\w+\]/.test(line));
  return write < 0 ? -1 : defAbove(lines, write);
};
/** The resource writer made private (`put` → `_put`): the idiom's own writers are public. */
const privateWriter = (name: string): Plant => composer(rename(name, `_${name}`), `def _${name}(`);
/** `Request` aliasing the SDK's request message, in the entry point's signature. */
const requestAlias = (signature: string, aliased: string): Plant =>
  composer(
    (t) =>
      replaceExactly(
        replaceExactly(t, signature, aliased),
        'from crossplane.function.proto.v1 import run_function_pb2 as fnv1\n',
        'from crossplane.function.proto.v1 import run_function_pb2 as fnv1\n\nRequest = fnv1.RunFunctionRequest\n',
      ),
    'Request = ',
  );

/** The seed suite's first ten seeds, each written once over what the code does. */
const GENERIC_SEEDS: IdiomSeed[] = [
  {
    facet: 'naming-style',
    drift: 'a module constant in camelCase',
    // The constant holding a string value is renamed too: the name of that value's constant differs.
    also: ['constant-name'],
    generic: (files) => {
      const text = files.get(COMPOSER)!;
      const name = /^([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+) = /m.exec(text)?.[1];
      if (!name) return undefined;
      const camel = name.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
      return { files: withFile(files, COMPOSER, text.replace(words(name), camel)), at: { file: COMPOSER, text: `${camel} = ` } };
    },
    plant: {},
  },
  {
    facet: 'constant-name',
    drift: 'the StorageClass name constant with a cloud prefix',
    generic: (files) => {
      const text = files.get(COMPOSER)!;
      const name = /^([A-Z_]+) = "modelplane-rwx"/m.exec(text)?.[1];
      if (!name) return undefined;
      return { files: withFile(files, COMPOSER, text.replace(words(name), `EXAMPLE_${name}`)), at: { file: COMPOSER, text: `EXAMPLE_${name} = ` } };
    },
    plant: {},
  },
  {
    facet: 'idiom',
    drift: 'a composed resource written through its own update method',
    generic: (files) => {
      const text = files.get(COMPOSER)!;
      const write = /resource\.update\(([\w.]+\.desired\.resources\[\w+\]), (\w+)\)/.exec(text);
      if (!write) return undefined;
      const seeded = `${write[1]}.resource.update(${write[2]})`;
      return { files: withFile(files, COMPOSER, text.replace(write[0], seeded)), at: { file: COMPOSER, text: seeded } };
    },
    plant: {},
  },
  {
    facet: 'readiness-shape',
    drift: 'a special case on a literal key inside the readiness loop',
    generic: (files) => {
      const text = files.get(COMPOSER)!;
      const loop = /^( *)for key in sorted\(.*\):\n/m.exec(text);
      if (!loop) return undefined;
      const inner = `${loop[1]}    `;
      const special = `${inner}if key == "network" and not key:\n${inner}    continue\n`;
      return { files: withFile(files, COMPOSER, text.replace(loop[0], loop[0] + special)), at: { file: COMPOSER, text: `${inner}if key == "network"` } };
    },
    plant: {
      // hybrid special-cases the cluster already: its drift is the loop without it.
      hybrid: composer((t) => replaceExactly(t, '            if key == "cluster" and not self._observed_ready(key):\n                continue\n', ''), '        for key in sorted(self.desired):'),
    },
  },
  {
    facet: 'layout',
    drift: 'a module the others do not have',
    generic: (files) => ({ files: new Map([...files, ['function/extra.py', '"""A module of its own."""\n']]), at: { file: 'function/extra.py', text: '"""A module' } }),
    plant: {},
  },
  {
    facet: 'helper-presence',
    drift: 'a helper only this provider has, reading the observed resources',
    generic: (files) => {
      const text = files.get(COMPOSER)!;
      const helper = '\n\ndef count_observed(req: fnv1.RunFunctionRequest) -> int:\n    """How many composed resources Crossplane observed."""\n    return len(req.observed.resources)\n';
      return { files: withFile(files, COMPOSER, text.trimEnd() + '\n' + helper), at: { file: COMPOSER, text: 'def count_observed(' } };
    },
    plant: {},
  },
  {
    facet: 'annotations',
    drift: 'a bare dict in a signature',
    generic: (files) => {
      const text = files.get(COMPOSER)!;
      const line = /^\s*def .*\bdict\[str, Any\].*$/m.exec(text)?.[0];
      if (!line) return undefined;
      const seeded = line.replace('dict[str, Any]', 'dict');
      return { files: withFile(files, COMPOSER, text.replace(line, seeded)), at: { file: COMPOSER, text: seeded } };
    },
    plant: {
      // modular annotates almost nothing: its one annotated parameter takes the bare container.
      modular: composer((t) => replaceExactly(t, 'def desire(rsp, desired, key, body: Body):', 'def desire(rsp, desired: dict, key, body: Body):'), 'def desire('),
      // hybrid writes its bodies through the Manifest alias: the writer takes a bare dict instead.
      hybrid: composer((t) => replaceExactly(t, '    def _desire(self, key: str, body: Manifest) -> None:', '    def _desire(self, key: str, body: dict) -> None:'), '    def _desire('),
    },
  },
  {
    facet: 'type-alias',
    drift: 'a type alias the others write out',
    generic: (files) => {
      const text = files.get(COMPOSER)!;
      const line = /^\s*def .*\bdict\[str, Any\].*$/m.exec(text)?.[0];
      const imports = /^from crossplane\.function\.proto\.v1 import run_function_pb2 as fnv1\n/m.exec(text);
      if (!line || !imports || !/^from typing import .*\bAny\b/m.test(text)) return undefined;
      const seeded = text.replace(line, line.replace('dict[str, Any]', 'Body')).replace(imports[0], `${imports[0]}\nBody = dict[str, Any]\n`);
      return { files: withFile(files, COMPOSER, seeded), at: { file: COMPOSER, text: 'Body = ' } };
    },
    plant: {
      hybrid: requestAlias('    def __init__(self, req: fnv1.RunFunctionRequest,', '    def __init__(self, req: Request,'),
      modular: requestAlias('def compose(req: fnv1.RunFunctionRequest,', 'def compose(req: Request,'),
      selfreq: requestAlias('    def __init__(self, req: fnv1.RunFunctionRequest,', '    def __init__(self, req: Request,'),
    },
  },
  {
    facet: 'helper-visibility',
    drift: 'the resource writer public where the others keep it private (or private where they make it public)',
    // The def order is the runs of public and private defs: a def changing side changes the runs.
    also: ['def-order'],
    generic: (files) => {
      const text = files.get(COMPOSER)!;
      const lines = text.split('\n');
      const def = writerDef(lines);
      const name = def < 0 ? undefined : /def (_\w+)\(/.exec(lines[def]!)?.[1];
      if (!name) return undefined;
      const bare = name.replace(/^_+/, '');
      return { files: withFile(files, COMPOSER, text.replace(words(name), bare)), at: { file: COMPOSER, text: lines[def]!.replace(name, bare) } };
    },
    plant: { modular: privateWriter('desire'), reqparam: privateWriter('put'), selfreq: privateWriter('set'), stateful: privateWriter('emit') },
  },
  {
    facet: 'helper-docstring',
    drift: 'the resource writer without its docstring (or with one where the others write none)',
    // A public writer is a public def: without its docstring, not every public def carries one.
    also: ['docstrings'],
    generic: (files) => {
      const text = files.get(COMPOSER)!;
      const lines = text.split('\n');
      const def = writerDef(lines);
      const seeded = def < 0 ? undefined : withoutDocstring(text, def);
      return seeded ? { files: withFile(files, COMPOSER, seeded), at: { file: COMPOSER, text: lines[def]! } } : undefined;
    },
    plant: {
      modular: composer((t) => replaceExactly(t, 'def desire(rsp, desired, key, body: Body):\n', 'def desire(rsp, desired, key, body: Body):\n    """Add a desired resource."""\n'), 'def desire('),
    },
  },
];

/** The node-pool gate as an early return. */
const GATE_EARLY_RETURN = (observed: string, rsp: string, indent: string) =>
  `${indent}if "cluster" not in ${observed} and "nodepool-system" not in ${observed}:\n${indent}    response.normal(${rsp}, "Waiting for the cluster")\n${indent}    return\n`;

const FACET_SEEDS: IdiomSeed[] = [
  {
    facet: 'composer',
    drift: 'the node-pool composer renamed',
    plant: {
      classy: composer(rename('compose_node_pools', 'compose_nodepools'), '    def compose_nodepools('),
      hybrid: composer(rename('compose_node_pools', 'compose_nodepools'), '    def compose_nodepools('),
      modular: composer(rename('compose_node_pools', 'compose_nodepools'), 'def compose_nodepools('),
      reqparam: composer(rename('add_node_pools', 'add_nodepools'), 'def add_nodepools('),
      selfreq: composer(rename('set_pools', 'set_node_pools'), '    def set_node_pools('),
      stateful: composer(rename('node_pools', 'nodepools'), 'def nodepools('),
    },
  },
  {
    facet: 'helper-name',
    drift: 'a helper renamed within snake_case',
    plant: {
      classy: composer(rename('_observed_ready', '_is_ready'), '    def _is_ready('),
      hybrid: composer(rename('_observed_ready', '_is_ready'), '    def _is_ready('),
      modular: composer(rename('cloud', 'cloud_body'), 'def cloud_body('),
      // Its body builders (kubeconfig_name, cloud_resource) read nothing of the request and pair by name only: the writer does.
      reqparam: composer(rename('put', 'put_resource'), 'def put_resource('),
      selfreq: composer(rename('observed_ready', 'is_ready'), 'def is_ready('),
      stateful: composer(rename('cloud', 'managed'), 'def managed('),
    },
  },
  {
    facet: 'gate-placement',
    drift: 'the node-pool gate moved (an early return becomes a condition, a call-site gate moves into the composer)',
    plant: {
      classy: composer(
        (t) =>
          within(t, '        if (\n            "cluster" not in', '    def _node_pool(', () =>
            [
              '        if "cluster" in self.observed_resources or "nodepool-system" in self.observed_resources:',
              '            for pool in [SYSTEM_POOL, *self.pools]:',
              '                self._desire(f"nodepool-{pool[\'name\']}", self._cloud("NodePool", self._node_pool(pool)))',
              '        else:',
              '            response.normal(self.rsp, "Waiting for the cluster")',
              '',
              '',
            ].join('\n'),
          ),
        '        if "cluster" in self.observed_resources',
      ),
      hybrid: composer(
        (t) =>
          replaceExactly(
            replaceExactly(t, '        if self._pools_composable():\n            self.compose_node_pools()\n        else:\n            response.normal(self.rsp, "Waiting for the cluster")\n', '        self.compose_node_pools()\n'),
            '        """The system pool and the spec\'s pools."""\n',
            '        """The system pool and the spec\'s pools."""\n        if not self._pools_composable():\n            response.normal(self.rsp, "Waiting for the cluster")\n            return\n',
          ),
        '        if not self._pools_composable()',
        // The helper deciding the gate no longer follows its caller (compose): it leaves the def order's runs.
        ['def-order'],
      ),
      modular: composer(
        (t) =>
          within(t, '    if "cluster" in observed or', '\n\ndef compose_provider_configs(', (part) => {
            const loop = part.slice(part.indexOf('        for pool'), part.indexOf('    else:'));
            return GATE_EARLY_RETURN('observed', 'rsp', '    ') + shift(loop, -4).trimEnd() + '\n';
          }),
        '    if "cluster" not in observed',
      ),
      reqparam: composer(
        (t) =>
          replaceExactly(
            replaceExactly(t, '    observed = request.observed.resources\n    if "cluster" in observed or "nodepool-system" in observed:\n        add_node_pools(request, out)\n    else:\n        response.normal(out, "Waiting for the cluster")\n', '    add_node_pools(request, out)\n'),
            '    """The system pool and the XR\'s pools (the caller waits for the cluster)."""\n',
            '    """The system pool and the XR\'s pools, once the cluster is observed."""\n    observed = request.observed.resources\n' + GATE_EARLY_RETURN('observed', 'out', '    '),
          ),
        '    if "cluster" not in observed',
      ),
      selfreq: composer(
        (t) =>
          within(t, '        if "cluster" not in seen', '\n    def set(self', (part) => {
            const loop = part.slice(part.indexOf('        for pool'));
            return ['        if "cluster" in seen or "nodepool-system" in seen:', shift(loop, 4).trimEnd(), '        else:', '            response.normal(self.rsp, "Waiting for the cluster")', ''].join('\n');
          }),
        '        if "cluster" in seen',
      ),
      stateful: composer(
        (t) =>
          within(t, '    if "cluster" in state.observed or', '\n\ndef provider_configs(', (part) => {
            const body = part.slice(part.indexOf('        system = '), part.indexOf('    else:'));
            return GATE_EARLY_RETURN('state.observed', 'state.rsp', '    ') + shift(body, -4).trimEnd() + '\n';
          }),
        '    if "cluster" not in state.observed',
      ),
    },
  },
  {
    facet: 'method-kinds',
    drift: 'a composer method made a staticmethod or a property',
    plant: {
      classy: composer((t) => replaceExactly(t, '    def _node_pool(self, pool: dict[str, Any])', '    @staticmethod\n    def _node_pool(pool: dict[str, Any])'), '    @staticmethod'),
      hybrid: composer(
        (t) =>
          replaceExactly(
            replaceExactly(replaceExactly(t, '    def _pools_composable(self) -> bool:', '    @staticmethod\n    def _pools_composable(observed: Any) -> bool:'), 'if self._pools_composable():', 'if self._pools_composable(self.observed_resources):'),
            '        return "cluster" in self.observed_resources or "nodepool-system" in self.observed_resources',
            '        return "cluster" in observed or "nodepool-system" in observed',
          ),
        '    @staticmethod',
        // A staticmethod takes what it read through self as a parameter.
        ['helper-signature'],
      ),
      selfreq: composer(
        (t) =>
          replaceExactly(
            replaceExactly(within(t, 'def composite(', 'def observed_ready(', () => ''), '    def reconcile(self):', '    @staticmethod\n    def composite(req: fnv1.RunFunctionRequest) -> dict:\n        """The observed XR, as a dict."""\n        return resource.struct_to_dict(req.observed.composite.resource)\n\n    def reconcile(self):'),
            'xr = composite(self.req)',
            'xr = self.composite(self.req)',
          ),
        '    @staticmethod',
      ),
    },
  },
  {
    facet: 'comment-sections',
    drift: 'a section banner between the defs',
    plant: {
      classy: composer((t) => replaceExactly(t, '    def _cloud(', `    ${BANNER}    def _cloud(`), '    # --- helpers'),
      hybrid: composer((t) => replaceExactly(t, '    def _cloud(', `    ${BANNER}    def _cloud(`), '    # --- helpers'),
      selfreq: composer((t) => replaceExactly(t, '    def set(self', `    ${BANNER}    def set(self`), '    # --- helpers'),
      // Module functions: the banner at module level, between them.
      modular: composer((t) => replaceExactly(t, '\ndef cloud(', `\n${BANNER}def cloud(`), '# --- helpers'),
      reqparam: composer((t) => replaceExactly(t, '\ndef composite(', `\n${BANNER}def composite(`), '# --- helpers'),
      stateful: composer((t) => replaceExactly(t, '\ndef cloud(', `\n${BANNER}def cloud(`), '# --- helpers'),
    },
  },
  {
    facet: 'helper-placement',
    drift: 'a body builder only one role composer calls moved from where the idiom keeps it',
    plant: {
      classy: composer((t) => moveDef(t, '    def _node_pool(', '    def compose_provider_configs(', '    def _cloud('), '    def _node_pool('),
      // Module functions keep their builders after every composer: one moved directly after its only caller.
      stateful: composer((t) => moveDef(t, 'def provider_config(', 'def emit(', 'def storage_class('), 'def provider_config('),
      // The reconciler's module-level builders follow the class: its composer moved last, they follow it directly.
      selfreq: composer((t) => moveDef(t, '    def reconcile(self):', '    def set_pools(', 'def managed('), 'def provider_config('),
    },
  },
  {
    facet: 'constant-literal',
    drift: 'the pool label a constant where the others write it',
    plant: Object.fromEntries(
      IDIOMS.map((idiom) => [
        idiom,
        composer((t) => {
          const first = /^[A-Z][A-Z0-9_]* = .*\n/m.exec(t)!;
          const named = replaceExactly(t, '{"modelplane.ai/pool": ', '{POOL_LABEL: ');
          return named.replace(first[0], `${first[0]}POOL_LABEL = "modelplane.ai/pool"\n`);
        }, 'POOL_LABEL = '),
      ]),
    ),
  },
  {
    facet: 'module',
    drift: 'a helper moved to a module of its own',
    plant: {
      classy: moved(
        (t) => replaceExactly(replaceExactly(within(t, '    def _node_pool(', '    def compose_provider_configs(', () => ''), 'self._node_pool(pool)', 'pools._node_pool(pool)'), 'from crossplane.function.proto.v1 import run_function_pb2 as fnv1\n', 'from crossplane.function.proto.v1 import run_function_pb2 as fnv1\n\nfrom function import pools\n'),
        'function/pools.py',
        '"""Node pool bodies."""\n\nfrom typing import Any\n\n\ndef _node_pool(pool: dict[str, Any]) -> dict[str, Any]:\n    """What a node pool asks of the cloud, labelled with its pool\'s name."""\n    return {\n        **pool,\n        "clusterSelector": {"matchControllerRef": True},\n        "labels": {"modelplane.ai/pool": pool["name"]},\n    }\n',
        'def _node_pool(',
      ),
      hybrid: moved(
        (t) =>
          replaceExactly(
            replaceExactly(within(t, '    def _observed_ready(', '    def _desire(', () => ''), 'self._observed_ready(key)', 'readiness._observed_ready(self.observed_resources, key)', 2),
            'from crossplane.function.proto.v1 import run_function_pb2 as fnv1\n',
            'from crossplane.function.proto.v1 import run_function_pb2 as fnv1\n\nfrom function import readiness\n',
          ),
        'function/readiness.py',
        '"""Readiness of the observed resources."""\n\nfrom typing import Any\n\nfrom crossplane.function import resource\n\n\ndef _observed_ready(observed: Any, key: str) -> bool:\n    """Whether the observed resource is Ready."""\n    return resource.get_condition(observed.get(key), "Ready").status == "True"\n',
        'def _observed_ready(',
      ),
      modular: moved(
        (t) => replaceExactly(t.slice(0, t.indexOf('\n\ndef desire(')) + '\n', 'from crossplane.function.proto.v1 import run_function_pb2 as fnv1\n', 'from crossplane.function.proto.v1 import run_function_pb2 as fnv1\n\nfrom function.output import desire\n'),
        'function/output.py',
        '"""Writing desired resources."""\n\nfrom crossplane.function import resource\n\n\ndef desire(rsp, desired, key, body):\n    desired[key] = body\n    manifest = {"apiVersion": body.api_version, "kind": body.kind, "spec": body.spec}\n    if body.metadata:\n        manifest["metadata"] = body.metadata\n    resource.update(rsp.desired.resources[key], manifest)\n',
        'def desire(',
      ),
      reqparam: moved(
        (t) => replaceExactly(t.slice(0, t.indexOf('\n\ndef put(')) + '\n', 'from crossplane.function.proto.v1 import run_function_pb2 as fnv1\n', 'from crossplane.function.proto.v1 import run_function_pb2 as fnv1\n\nfrom function.output import put\n'),
        'function/output.py',
        '"""Writing desired resources."""\n\nfrom typing import Any\n\nfrom crossplane.function import resource\nfrom crossplane.function.proto.v1 import run_function_pb2 as fnv1\n\n\ndef put(out: fnv1.RunFunctionResponse, key: str, body: dict[str, Any]) -> None:\n    """Write one desired composed resource."""\n    resource.update(out.desired.resources[key], body)\n',
        'def put(',
      ),
      selfreq: moved(
        (t) => replaceExactly(within(t, '\n\ndef provider_config(', '\n\ndef storage_class(', () => ''), 'from crossplane.function.proto.v1 import run_function_pb2 as fnv1\n', 'from crossplane.function.proto.v1 import run_function_pb2 as fnv1\n\nfrom function.bodies import provider_config\n'),
        'function/bodies.py',
        '"""Bodies of the workload cluster\'s ProviderConfigs."""\n\n\ndef provider_config(api_version: str, name: str, secret: dict) -> dict:\n    """A ProviderConfig that reaches the workload cluster through the kubeconfig Secret."""\n    return {\n        "apiVersion": api_version,\n        "kind": "ProviderConfig",\n        "metadata": {"name": name},\n        "spec": {"credentials": {"source": "Secret", "secretRef": secret}},\n    }\n',
        'def provider_config(',
      ),
      stateful: moved(
        (t) => replaceExactly(t.slice(0, t.indexOf('\n\ndef emit(')) + '\n', 'from crossplane.function.proto.v1 import run_function_pb2 as fnv1\n', 'from crossplane.function.proto.v1 import run_function_pb2 as fnv1\n\nfrom function.output import emit\n'),
        'function/output.py',
        '"""Writing desired resources."""\n\nfrom typing import Any\n\nfrom crossplane.function import resource\n\n\ndef emit(state: Any, key: str, body: dict[str, Any]) -> None:\n    """Write one desired composed resource, and remember it for readiness."""\n    state.composed.append(key)\n    resource.update(state.rsp.desired.resources[key], body)\n',
        'def emit(',
      ),
    },
  },
  {
    facet: 'constant-annotation',
    drift: 'a structured constant annotated where the others leave it bare, or bare where they annotate it',
    plant: {
      classy: composer((t) => replaceExactly(t, 'SYSTEM_POOL: dict[str, Any] = {', 'SYSTEM_POOL = {'), 'SYSTEM_POOL = '),
      hybrid: composer((t) => replaceExactly(t, 'SYSTEM_POOL = {', 'SYSTEM_POOL: dict[str, Any] = {'), 'SYSTEM_POOL: '),
      modular: composer((t) => replaceExactly(t, 'READY_WHEN_COMPOSED = (', 'READY_WHEN_COMPOSED: tuple[str, ...] = ('), 'READY_WHEN_COMPOSED: '),
      reqparam: composer((t) => replaceExactly(t, 'READY_ON_CREATE = (', 'READY_ON_CREATE: tuple[str, ...] = ('), 'READY_ON_CREATE: '),
      selfreq: composer((t) => replaceExactly(t, 'IN_CLUSTER = (', 'IN_CLUSTER: tuple[str, ...] = ('), 'IN_CLUSTER: '),
    },
  },
  {
    facet: 'helper-signature',
    drift: 'the resource writer takes extra positional arguments',
    plant: {
      classy: composer((t) => replaceExactly(t, '    def _desire(self, key: str, body: dict[str, Any]) -> None:', '    def _desire(self, key: str, body: dict[str, Any], *_extra: Any) -> None:'), '    def _desire('),
      hybrid: composer((t) => replaceExactly(t, '    def _desire(self, key: str, body: Manifest) -> None:', '    def _desire(self, key: str, body: Manifest, *_extra: Any) -> None:'), '    def _desire('),
      modular: composer((t) => replaceExactly(t, 'def desire(rsp, desired, key, body: Body):', 'def desire(rsp, desired, key, body: Body, *_extra):'), 'def desire('),
      reqparam: composer((t) => replaceExactly(t, 'def put(out: Response, key: str, body: dict[str, Any]) -> None:', 'def put(out: Response, key: str, body: dict[str, Any], *_extra: Any) -> None:'), 'def put('),
      selfreq: composer((t) => replaceExactly(t, '    def set(self, key: str, body: dict):', '    def set(self, key: str, body: dict, *_extra: object):'), '    def set('),
      stateful: composer((t) => replaceExactly(t, 'def emit(state: Reconcile, key: str, body: dict[str, Any]) -> None:', 'def emit(state: Reconcile, key: str, body: dict[str, Any], *_extra: Any) -> None:'), 'def emit('),
    },
  },
  {
    facet: 'def-order',
    drift: 'the shared resource writer between the entry point and the role composers',
    plant: {
      classy: composer((t) => moveDef(t, '    def _desire(', undefined, '    def compose_network('), '    def _desire('),
      hybrid: composer((t) => moveDef(t, '    def _desire(', undefined, '    def _pools_composable('), '    def _desire('),
    },
  },
  {
    facet: 'docstrings',
    drift: 'a role composer without its docstring',
    plant: {
      classy: composer((t) => replaceExactly(t, '        """A network of its own."""\n', ''), '    def compose_network('),
      hybrid: composer((t) => replaceExactly(t, '        """A network of its own."""\n', ''), '    def compose_network('),
      reqparam: composer((t) => replaceExactly(t, '    """A network of its own."""\n', ''), 'def add_network('),
      selfreq: composer((t) => replaceExactly(t, '        """The system pool and the XR\'s pools, once the cluster is observed, and kept while it is gone."""\n', ''), '    def set_pools('),
      stateful: composer((t) => replaceExactly(t, '    """A network of its own."""\n', ''), 'def network('),
    },
  },
  {
    facet: 'data-shape',
    drift: 'a body builder returns a record type where the others return a dict (or another record)',
    plant: {
      classy: composer((t) => beforeFirstDef(replaceExactly(replaceExactly(t, 'from typing import Any\n', 'from typing import Any, TypedDict\n'), '    def _cloud(self, kind: str, for_provider: dict[str, Any]) -> dict[str, Any]:', '    def _cloud(self, kind: str, for_provider: dict[str, Any]) -> Resource:'), TYPED_DICT), '    def _cloud('),
      hybrid: composer((t) => beforeFirstDef(replaceExactly(replaceExactly(t, 'from typing import Any, NamedTuple\n', 'from typing import Any, NamedTuple, TypedDict\n'), '    def _cloud(self, kind: str, for_provider: Manifest) -> Manifest:', '    def _cloud(self, kind: str, for_provider: Manifest) -> Resource:'), TYPED_DICT), '    def _cloud('),
      modular: composer(
        (t) =>
          replaceExactly(
            replaceExactly(replaceExactly(t, 'from dataclasses import dataclass, field\n', 'from typing import NamedTuple\n'), '@dataclass\nclass Body:\n', 'class Body(NamedTuple):\n'),
            '    spec: dict = field(default_factory=dict)\n    metadata: dict = field(default_factory=dict)\n',
            '    spec: dict = {}\n    metadata: dict = {}\n',
          ),
        'def cloud(',
      ),
      reqparam: composer((t) => beforeFirstDef(t.replace('def cloud_resource(request: Request, kind: str, for_provider: dict[str, Any]) -> dict[str, Any]:', 'def cloud_resource(request: Request, kind: str, for_provider: dict[str, Any]) -> Resource:').replace('from typing import Any\n', 'from typing import Any, TypedDict\n'), TYPED_DICT), 'def cloud_resource('),
      selfreq: composer((t) => beforeFirstDef(replaceExactly(replaceExactly(t, 'def managed(kind: str, ref: dict, for_provider: dict) -> dict:', 'def managed(kind: str, ref: dict, for_provider: dict) -> Resource:'), 'from crossplane.function import resource, response\n', 'from typing import Any, TypedDict\n\nfrom crossplane.function import resource, response\n'), TYPED_DICT), 'def managed('),
      stateful: composer((t) => beforeFirstDef(replaceExactly(replaceExactly(t, 'def cloud(state: Reconcile, kind: str, for_provider: dict[str, Any]) -> dict[str, Any]:', 'def cloud(state: Reconcile, kind: str, for_provider: dict[str, Any]) -> Resource:'), 'from typing import Any\n', 'from typing import Any, TypedDict\n'), TYPED_DICT), 'def cloud('),
    },
  },
];

/** Every seed of the seed suite, for every idiom. */
export const IDIOM_SEEDS: IdiomSeed[] = [...GENERIC_SEEDS, ...FACET_SEEDS];

/**
 * Where a seed has no counterpart in an idiom: the idiom has no such construct at all (`absent`), or
 * drift's facet does not judge the idiom's version of it yet (`gap`, a known miss; none at present).
 */
export const EXCLUDED: ReadonlyArray<{ idiom: Idiom; facet: string; kind: 'absent' | 'gap'; reason: string }> = [
  { idiom: 'modular', facet: 'docstrings', kind: 'absent', reason: 'modular writes no docstrings at all: one fewer changes nothing, and one more still leaves a public def without' },
  { idiom: 'selfreq', facet: 'annotations', kind: 'absent', reason: 'selfreq annotates every container bare (its expected finding): one bare dict more is the same value' },
  { idiom: 'stateful', facet: 'constant-annotation', kind: 'absent', reason: 'stateful has no dict, tuple or list constant: its one collection constant is a frozenset() call' },
  { idiom: 'hybrid', facet: 'helper-placement', kind: 'absent', reason: 'hybrid has no body builder only one role composer calls: its node-pool body is built inline' },
  { idiom: 'selfreq', facet: 'def-order', kind: 'absent', reason: "selfreq's reconciler methods are all public (reconcile, set_pools, set): there is no private run to misplace" },
  ...(['modular', 'reqparam', 'stateful'] as const).flatMap((idiom) => [
    { idiom, facet: 'method-kinds', kind: 'absent' as const, reason: `${idiom} has no class holding its role composers: module functions have no method kind` },
    { idiom, facet: 'def-order', kind: 'absent' as const, reason: `${idiom} names every def public: the def order's public and private runs have nothing to reorder` },
  ]),
  ...(['modular', 'reqparam'] as const).map((idiom) => ({ idiom, facet: 'helper-placement', kind: 'absent' as const, reason: `${idiom} has no body builder only one role composer calls: each of its module helpers is called by more than one def` })),
];
