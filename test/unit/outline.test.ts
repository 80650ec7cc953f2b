/** The source outline on the style fixtures and on small inline sources: the real grammar, no processes. */
import { describe, expect, it } from 'vitest';
import { tooDeep } from '../../src/outline/bounds.js';
import { parserFor } from '../../src/outline/grammar.js';
import { buildOutline, composerOf, keyMatches } from '../../src/outline/outline.js';
import { fileKind, moduleName, namingStyle } from '../../src/outline/python.js';
import { readSources } from '../../src/outline/read.js';
import { toCanonicalOutline } from '../../src/outline/canonicalOutline.js';
import { fixtureAdapter, fixtureOutline } from '../helpers/style.js';

const outlineOf = async (files: Record<string, string>) =>
  buildOutline('p', Object.entries(files).map(([path, text]) => ({ path, text })), await parserFor('.py'));

describe('outline: layout and definitions', () => {
  it('records files, modules, kinds, constants, classes, methods and normalized signatures', async () => {
    const { outline } = await fixtureOutline('alpha');
    expect(Object.keys(outline.files)).toEqual(['function/__init__.py', 'function/composer.py', 'tests/builders.py', 'tests/test_composer.py']);
    expect(Object.values(outline.files).map((file) => [file.module, file.kind])).toEqual([
      ['function', 'package-marker'],
      ['function.composer', 'module'],
      ['tests.builders', 'test-helper'],
      ['tests.test_composer', 'test'],
    ]);
    const composer = outline.files['function/composer.py']!;
    expect(Object.fromEntries(Object.entries(composer.constants).map(([name, constant]) => [name, constant.style]))).toEqual({ COMPUTE: 'UPPER_SNAKE', KUBERNETES: 'UPPER_SNAKE', READY_WHEN_COMPOSED: 'UPPER_SNAKE', SYSTEM_POOL: 'UPPER_SNAKE' });
    expect(composer.constants.KUBERNETES).toEqual({ style: 'UPPER_SNAKE', value: 'kubernetes.m.crossplane.io/v1alpha1', usedAs: ['"apiVersion":'] });
    expect(composer.constants.READY_WHEN_COMPOSED).toEqual({ style: 'UPPER_SNAKE', shape: 'tuple' });
    expect(composer.imports).toEqual(['crossplane.function.proto.v1.run_function_pb2 as fnv1', 'crossplane.function.resource', 'crossplane.function.response', 'typing.Any']);
    expect(composer.sdkCalls).toEqual(['resource.get_condition', 'resource.struct_to_dict', 'resource.update', 'response.normal']);
    const methods = composer.classes.Composer!.methods;
    expect(methods.__init__).toMatchObject({ signature: '(self, req: fnv1.RunFunctionRequest, rsp: fnv1.RunFunctionResponse) -> None', docstring: true });
    // Def order as a sequence; what each def reads of the composer's state and which of the provider's functions it calls.
    expect(composer.classes.Composer!.order.slice(0, 3)).toEqual(['__init__', 'compose', 'compose_network']);
    expect(composer.order).toEqual(['Composer']);
    expect(methods._desire!.request).toEqual(['desired']);
    expect(methods.compose!.calls).toContain('compose_node_pools');
    expect(Object.keys(methods)).toContain('compose_node_pools');
  });

  it('counts the comments between module functions (section banners), not those heading the file or a constant', async () => {
    const { outline, places } = await outlineOf({
      'function/composer.py': ['# Composes the cluster.', '', '# The API group.', 'GROUP = "example.org"', '', '', 'def compose():', '    # a note in a body', '    pass', '', '', '# --- helpers ---', '', '', 'def cloud():', '    pass', '', '', '# Retries, tuned by hand.', 'RETRIES = 3', ''].join('\n'),
      'function/plain.py': ['# Nothing but a header.', '', '', 'def one():', '    pass', ''].join('\n'),
    });
    expect(outline.files['function/composer.py']!.comments).toBe(1);
    expect(outline.files['function/plain.py']!.comments).toBeUndefined();
    expect(places.get('comment:function/composer.py')).toBe('function/composer.py:12');
  });

  it('normalizes a wrapped signature like an unwrapped one and keeps defaults, splats, decorators and async', async () => {
    const { outline } = await outlineOf({
      'function/a.py': 'import click\n\n\n@click.command()\nasync def serve(\n    address: str = "x",\n    *args,\n    **kwargs: object,\n) -> None:\n    pass\n',
      'function/b.py': 'import click\n\n\n@click.command()\nasync def serve(address: str = "x", *args, **kwargs: object) -> None:\n    """Serve."""\n',
    });
    const a = outline.files['function/a.py']!.functions.serve!;
    const b = outline.files['function/b.py']!.functions.serve!;
    expect(a).toEqual({ signature: '(address: str = "x", *args, **kwargs: object) -> None', docstring: false, decorators: ['click.command'], async: true });
    expect(b.signature).toBe(a.signature);
    expect(b.docstring).toBe(true);
  });

  it('names each constant style', () => {
    expect(['SYSTEM_POOL', '_PRIVATE', 'systemPool', 'system_pool', 'SystemPool', 'X'].map(namingStyle)).toEqual(['UPPER_SNAKE', 'UPPER_SNAKE', 'camelCase', 'snake_case', 'PascalCase', 'UPPER_SNAKE']);
    expect(['function/__init__.py', 'function/composer.py', 'tests/builders.py', 'tests/test_composer.py', 'conftest.py'].map(fileKind)).toEqual(['package-marker', 'module', 'test-helper', 'test', 'test-helper']);
    expect(moduleName('function/__init__.py')).toBe('function');
  });
});

describe('outline: the link to behaviour', () => {
  it('names the function whose body holds each key, not the helper it is handed to', async () => {
    const { outline } = await fixtureOutline('alpha');
    expect(outline.composes).toEqual({
      cluster: 'Composer.compose_cluster',
      network: 'Composer.compose_network',
      'nodepool-{}': 'Composer.compose_node_pools',
      'provider-config-kubernetes': 'Composer.compose_provider_config',
    });
    expect(composerOf(outline, 'nodepool-gpu')).toEqual({ pattern: 'nodepool-{}', function: 'Composer.compose_node_pools' });
    expect(composerOf(outline, 'storage-class-rwx')).toBeUndefined();
  });

  it('follows keys through local names, loop targets and helpers that pass their parameter on, across modules', async () => {
    const { outline } = await outlineOf({
      'function/write.py': 'from crossplane.function import resource\n\n\ndef put(rsp, key, body):\n    resource.update(rsp.desired.resources[key], body)\n',
      'function/compose.py': [
        'from function.write import put',
        '',
        '',
        'def keep(rsp, name, body):',
        '    put(rsp, name, body)',
        '',
        '',
        'def configs(rsp):',
        '    for key, api in (("provider-config-helm", 1), ("provider-config-kubernetes", 2)):',
        '        keep(rsp, key, {"api": api})',
        '',
        '',
        'def pools(rsp, pools):',
        '    for pool in pools:',
        '        key = f"nodepool-{pool}"',
        '        if "cluster" in rsp.observed.resources:',
        '            keep(rsp, key, {})',
        '',
        '',
        'def direct(rsp):',
        '    rsp.desired.resources["cluster"].resource.update({})',
        '',
      ].join('\n'),
    });
    expect(outline.composes).toEqual({
      cluster: 'direct',
      'nodepool-{}': 'pools',
      'provider-config-helm': 'configs',
      'provider-config-kubernetes': 'configs',
    });
    expect(outline.idioms.resourceWrite).toEqual(['desired.resources[].resource.update()', 'resource.update(desired.resources[])']);
  });

  it('records how readiness is marked and decided, and how results are emitted', async () => {
    const { outline } = await fixtureOutline('alpha');
    expect(outline.idioms).toEqual({
      resourceWrite: ['resource.update(desired.resources[])'],
      readinessMark: ['desired.resources[].ready = READY_TRUE'],
      readinessBy: ['READY_WHEN_COMPOSED', '_observed_ready()'],
      results: ['response.normal()'],
      readinessShape: ['loop over sorted(desired)'],
    });
    expect((await fixtureOutline('own-results')).outline.idioms.results).toEqual(['results.add()']);
  });

  it('records where each gate is checked and the readiness special cases, from the query captures', async () => {
    const { outline, places } = await outlineOf({
      'function/c.py': [
        'class C:',
        '    def compose(self):',
        '        self.compose_pools()',
        '        if self.ready:',
        '            self.compose_class()',
        '',
        '    def compose_pools(self):',
        '        if self._cluster_ready():',
        '            self.rsp.desired.resources["nodepool-a"].resource.update({})',
        '',
        '    def compose_class(self):',
        '        self.rsp.desired.resources["storage-class-rwx"].resource.update({})',
        '',
        '    def compose_net(self):',
        '        if not self.ready:',
        '            return',
        '        self.rsp.desired.resources["network"].resource.update({})',
        '',
        '    def _cluster_ready(self):',
        '        return True',
        '',
        '    def mark(self):',
        '        for key in self.desired:',
        '            if key == "cluster" or key in READY:',
        '                self.rsp.desired.resources[key].ready = True',
        '',
      ].join('\n'),
    });
    expect(outline.gates).toEqual({ network: 'composer: early return', 'nodepool-a': 'composer: if, decided by a helper', 'storage-class-rwx': 'call site: if' });
    expect(places.get('gate:network')).toBe('function/c.py:15');
    expect(places.get('gate:storage-class-rwx')).toBe('function/c.py:4');
    expect(outline.idioms.readinessShape).toEqual(['loop over desired', 'special case on a literal key']);
    expect(outline.files['function/c.py']!.classes.C!.methods.compose!.calls).toEqual(['compose_class?', 'compose_pools']);
    expect(places.get('literal:cluster')).toBe('function/c.py:24');
  });

  it('outlines deeply nested code without overflowing the stack', async () => {
    const depth = 3000;
    const nested = `def f(x):\n    return ${'('.repeat(depth)}x${')'.repeat(depth)}\n`;
    const { outline } = await outlineOf({ 'function/deep.py': nested });
    expect(Object.keys(outline.files['function/deep.py']!.functions)).toEqual(['f']);
  });

  it('finds the first node past the depth limit, and the parser and its copies work after it', async () => {
    const parse = await parserFor('.py');
    const deep = parse(`a = "é" + ${'('.repeat(520)}2${')'.repeat(520)}\n`);
    const shallow = parse('def f():\n    return 1\n');
    try {
      // Line 1; the column counts UTF-16 units, past the `é`.
      expect(tooDeep(deep.tree)).toEqual({ line: 1, column: 507 });
      expect(tooDeep(deep.tree)).toEqual({ line: 1, column: 507 });
      expect(tooDeep(shallow.tree)).toBeUndefined();
    } finally {
      deep.tree.delete();
      shallow.tree.delete();
    }
    const { outline, places } = await outlineOf({ 'function/f.py': 'def f(x):\n    return x\n' });
    expect(outline.files['function/f.py']!.functions.f!.signature).toBe('(x)');
    expect(places.get('def:f')).toBe('function/f.py:1');
  });

  it('matches key patterns against composed keys', () => {
    expect(keyMatches('nodepool-{}', 'nodepool-gpu')).toBe(true);
    expect(keyMatches('nodepool-{}', 'nodepool-')).toBe(false);
    expect(keyMatches('subnet-{}-{}', 'subnet-a-1')).toBe(true);
    expect(keyMatches('cluster', 'cluster-auth')).toBe(false);
  });
});

describe('outline: where a string constant is used', () => {
  it('says where the value goes in function bodies, never from a string or a comment, never a local shadow at module level', async () => {
    const { outline } = await outlineOf({
      'function/composer.py': [
        'RANGE = "10.0.0.0/16"',
        'LABEL = "modelplane.ai/zone"',
        'UNUSED = "nothing"',
        'OTHER = RANGE',
        '',
        'def body(rsp):',
        '    # RANGE in a comment, and "RANGE" in a string, are no use',
        '    rsp.update({"cidrBlock": [RANGE], LABEL: "a"}, region=RANGE)',
        '    check(LABEL)',
        '    if LABEL == rsp.label:',
        '        return',
        '',
      ].join('\n'),
    });
    const constants = outline.files['function/composer.py']!.constants;
    expect(constants.RANGE!.usedAs).toEqual(['"cidrBlock":', 'region=']);
    expect(constants.LABEL!.usedAs).toEqual(['a dict key', 'argument of check', 'comparison operator']);
    expect(constants.UNUSED!.usedAs).toBeUndefined();
  });
});

describe('outline: determinism and positions', () => {
  it('is the same whatever order the files come in, and positions stay out of it', async () => {
    const sources = await readSources(fixtureAdapter('alpha'));
    const parse = await parserFor('.py');
    const forward = buildOutline('alpha', sources, parse);
    const backward = buildOutline('alpha', [...sources].reverse(), parse);
    expect(toCanonicalOutline(backward.outline)).toBe(toCanonicalOutline(forward.outline));
    // An unrelated edit that moves every line down changes the places, never the outline.
    const shifted = sources.map((source) => (source.path === 'function/composer.py' ? { ...source, text: `# a comment\n\n${source.text}` } : source));
    const moved = buildOutline('alpha', shifted, parse);
    expect(toCanonicalOutline(moved.outline)).toBe(toCanonicalOutline(forward.outline));
    expect(forward.places.get('def:Composer.compose_node_pools')).toMatch(/^function\/composer\.py:\d+$/);
    expect(moved.places.get('def:Composer.compose_node_pools')).not.toBe(forward.places.get('def:Composer.compose_node_pools'));
    expect(toCanonicalOutline(forward.outline)).not.toMatch(/:\d+\b.*composer\.py|composer\.py:\d/);
  });

  it('takes the tree the depth check parsed when the sources were read: one parse per file', async () => {
    const parse = await parserFor('.py');
    let parses = 0;
    const counting: typeof parse = (text) => {
      parses += 1;
      return parse(text);
    };
    const read = await readSources(fixtureAdapter('alpha'));
    const once = buildOutline('alpha', read, counting);
    expect(parses).toBe(0);
    // The tree is the outline's to free: the same sources outlined again are parsed anew, to the same outline.
    const again = buildOutline('alpha', read, counting);
    expect(parses).toBe(read.length);
    expect(toCanonicalOutline(again.outline)).toBe(toCanonicalOutline(once.outline));
    expect([...again.places]).toEqual([...once.places]);
  });

  it('outlines a file with a syntax error as far as it can, and says where the error is', async () => {
    const result = await fixtureOutline('broken-syntax');
    expect(result.syntaxErrors).toEqual([{ file: 'function/composer.py', line: 38, column: expect.any(Number) }]);
    expect(result.outline.files['function/composer.py']!.syntaxError).toBe(true);
    // What precedes the error is still outlined; the other files are whole.
    expect(Object.keys(result.outline.files['function/composer.py']!.classes.Composer!.methods)).toEqual(['__init__', 'compose', 'compose_network']);
    expect(result.outline.files['tests/builders.py']!.syntaxError).toBeUndefined();
  });
});

describe('outline: languages', () => {
  it('refuses source in a language without a grammar, naming the adapter and what to do', async () => {
    await expect(readSources(fixtureAdapter('go', ['**/*.go']))).rejects.toThrow(/go\/provider\.yaml: source\.include matches main\.go: drift has no grammar for \.go files.*point source\.include/);
  });
});

describe('outline: places a finding points at', () => {
  const composer = [
    'from crossplane.function import resource, response',
    '',
    'READY_WHEN_COMPOSED = ("storage-class-rwx",)',
    '',
    'class Composer:',
    '    def compose(self):',
    '        self.compose_node_pools()',
    '        self.publish()',
    '',
    '    def compose_node_pools(self):',
    '        if self.provider_config is not None:',
    '            for pool in self.pools:',
    '                key = f"nodepool-{pool[\'name\']}" if pool["user"] else f"system-{pool[\'name\']}"',
    '                if "cluster" in self.observed_resources:',
    '                    self._desire(key, self._node_pool(pool))',
    '        else:',
    '            response.normal(self.rsp, f"Waiting for GCP {self.kind} {self.name}")',
    '',
    '    def _node_pool(self, pool):',
    '        return self._cloud({"nodeCount": pool["nodeCount"]})',
    '',
    '    def _cloud(self, for_provider):',
    '        return {"spec": {"forProvider": for_provider}}',
    '',
    '    def _desire(self, key, body):',
    '        resource.update(self.rsp.desired.resources[key], body)',
    '',
    '    def publish(self):',
    '        resource.update(self.rsp.desired.composite, {"status": {}})',
    '',
  ].join('\n');

  it('records every nested gate outermost first with the keys its condition names, the body builder and the envelope, each result call with its message, and the status writer', async () => {
    const { places } = await outlineOf({ 'function/c.py': composer });
    const gates = [...places].filter(([key]) => key.startsWith('gates:nodepool-{}#'));
    expect(gates).toEqual([
      ['gates:nodepool-{}#0:', 'function/c.py:11'],
      ['gates:nodepool-{}#1:cluster', 'function/c.py:14'],
    ]);
    // Both branches of a conditional key are keys the function composes.
    expect(places.get('compose:system-{}')).toBe('function/c.py:13');
    expect(places.get('body:nodepool-{}')).toBe('function/c.py:19');
    expect(places.get('envelope:nodepool-{}')).toBe('function/c.py:22');
    expect(places.get('result:normal:17:Waiting for GCP {} {}')).toBe('function/c.py:17');
    expect(places.get('status-write:Composer.publish')).toBe('function/c.py:28');
  });
});
