import type { SyntaxNode as Node } from './syntax.js';
import type { ClassOutline, FileKind, FunctionOutline, ModuleOutline, NamingStyle } from './types.js';

/**
 * One Python file's syntax tree reduced to its outline and to the facts the provider-level outline
 * links across files (who writes composed resources, which literal keys reach them). Pure: a tree
 * in, data out; positions are 1-based lines.
 */

/** A value passed to a call, as far as the outline needs to know it. */
export type Argument =
  | { kind: 'key'; patterns: Array<{ pattern: string; line: number }> }
  | { kind: 'param'; index: number }
  | { kind: 'other' };

export interface CallFact {
  /** The called function's own name (`self._desire` → `_desire`), when it is a plain name. */
  callee: string;
  /** Positional arguments by index; keyword arguments by name. */
  args: Argument[];
  keywords: Record<string, Argument>;
}

export interface FunctionFact {
  /** `Composer.compose_node_pools`, or `main` for a module-level function. */
  qualified: string;
  name: string;
  file: string;
  line: number;
  /** Parameter names, without a method's `self` / `cls`, in order. */
  params: string[];
  /** Indexes of parameters used as the key of a desired composed resource in this body. */
  writesKeyParams: number[];
  /** Literal keys used directly as the key of a desired composed resource in this body. */
  writesKeys: Array<{ pattern: string; line: number }>;
  calls: CallFact[];
}

/** An idiom form with where it first appears. */
export interface FormFact {
  idiom: 'resourceWrite' | 'readinessMark' | 'readinessBy' | 'results';
  form: string;
  line: number;
}

export interface FileFacts {
  outline: ModuleOutline;
  functions: FunctionFact[];
  forms: FormFact[];
  /** `def:…`, `const:…`, `sdk:…` → line. */
  lines: Array<[string, number]>;
  syntaxError?: { line: number; column: number };
}

/** Results the SDK's response module emits, and the attribute a raw result is appended through. */
const RESULT_HELPERS = new Set(['normal', 'warning', 'fatal']);
const SDK_ROOT = 'crossplane.function';

const lineOf = (node: Node) => node.startPosition.row + 1;
/** Whitespace collapsed, so a wrapped signature reads like an unwrapped one. */
const compact = (text: string) => text.split(/\s+/).filter(Boolean).join(' ').replace(/\( /g, '(').replace(/,? \)/g, ')').replace(/,? ]/g, ']');

export function namingStyle(name: string): NamingStyle {
  const bare = name.replace(/^_+/, '');
  if (/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(bare)) return 'UPPER_SNAKE';
  if (/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(bare)) return 'snake_case';
  if (/^[a-z][a-zA-Z0-9]*$/.test(bare)) return 'camelCase';
  if (/^[A-Z][a-zA-Z0-9]*$/.test(bare)) return 'PascalCase';
  return 'other';
}

export function fileKind(path: string): FileKind {
  const parts = path.split('/');
  const base = parts[parts.length - 1]!;
  if (base === '__init__.py') return 'package-marker';
  const inTests = parts.slice(0, -1).some((part) => part === 'tests' || part === 'test');
  if (/^test_.*\.py$/.test(base) || base.endsWith('_test.py')) return 'test';
  return inTests || base === 'conftest.py' ? 'test-helper' : 'module';
}

export function moduleName(path: string): string {
  const parts = path.replace(/\.py$/, '').split('/');
  if (parts[parts.length - 1] === '__init__') parts.pop();
  return parts.join('.');
}

/** `a.b.c` for an attribute chain or a name; undefined for anything else (a call, a subscript). */
function dotted(node: Node | null): string | undefined {
  if (!node) return undefined;
  if (node.type === 'identifier') return node.text;
  if (node.type === 'attribute') {
    const object = dotted(node.childForFieldName('object'));
    const attribute = node.childForFieldName('attribute');
    return object && attribute ? `${object}.${attribute.text}` : undefined;
  }
  return undefined;
}

/** The last name of a callee: `self._desire` → `_desire`, `desire` → `desire`. */
function calleeName(node: Node | null): string | undefined {
  if (!node) return undefined;
  if (node.type === 'identifier') return node.text;
  if (node.type === 'attribute') return node.childForFieldName('attribute')?.text;
  return undefined;
}

/** A string literal as a key pattern: f-string holes become `{}`. Undefined for anything else. */
export function keyPatternOf(node: Node): string | undefined {
  if (node.type !== 'string') return undefined;
  let out = '';
  for (const child of node.namedChildren) {
    if (child.type === 'string_content') out += child.text;
    else if (child.type === 'interpolation') out += '{}';
  }
  return out;
}

function hasDocstring(block: Node | null): boolean {
  const first = block?.namedChildren.find((child) => child.type !== 'comment');
  return first?.type === 'expression_statement' && first.namedChildren[0]?.type === 'string';
}

function parameterText(node: Node): string {
  const field = (name: string) => node.childForFieldName(name);
  switch (node.type) {
    case 'typed_parameter': {
      const name = node.namedChildren.find((child) => child.type !== 'type');
      return `${name ? parameterText(name) : '?'}: ${compact(field('type')?.text ?? '')}`;
    }
    case 'default_parameter':
      return `${field('name')?.text ?? '?'}=${compact(field('value')?.text ?? '')}`;
    case 'typed_default_parameter':
      return `${field('name')?.text ?? '?'}: ${compact(field('type')?.text ?? '')} = ${compact(field('value')?.text ?? '')}`;
    default:
      return compact(node.text);
  }
}

function parameterName(node: Node): string | undefined {
  switch (node.type) {
    case 'identifier':
      return node.text;
    case 'typed_parameter':
      return parameterName(node.namedChildren.find((child) => child.type !== 'type')!);
    case 'default_parameter':
    case 'typed_default_parameter':
      return node.childForFieldName('name')?.text;
    case 'list_splat_pattern':
    case 'dictionary_splat_pattern':
      return node.namedChildren[0]?.text;
    default:
      return undefined;
  }
}

function decoratorsOf(definition: Node): string[] {
  const decorated = definition.parent?.type === 'decorated_definition' ? definition.parent : undefined;
  if (!decorated) return [];
  return decorated.namedChildren
    .filter((child) => child.type === 'decorator')
    .map((decorator) => {
      const expression = decorator.namedChildren[0];
      const target = expression?.type === 'call' ? expression.childForFieldName('function') : expression;
      return dotted(target ?? null) ?? compact(expression?.text ?? '');
    });
}

function functionOutline(definition: Node): FunctionOutline {
  const parameters = definition.childForFieldName('parameters');
  const returns = definition.childForFieldName('return_type');
  const signature = `(${(parameters?.namedChildren ?? []).filter((p) => p.type !== 'comment').map(parameterText).join(', ')})${returns ? ` -> ${compact(returns.text)}` : ''}`;
  const decorators = decoratorsOf(definition);
  const isAsync = definition.children.some((child) => child.type === 'async');
  return {
    signature,
    docstring: hasDocstring(definition.childForFieldName('body')),
    ...(decorators.length ? { decorators } : {}),
    ...(isAsync ? { async: true as const } : {}),
  };
}

/** The statements of a block; what error recovery wrapped in an ERROR node still counts. */
function statementsOf(block: Node | null): Node[] {
  return (block?.namedChildren ?? []).flatMap((child) => (child.type === 'ERROR' ? statementsOf(child) : [child]));
}

/** A class's body; error recovery may leave part of it in an ERROR node beside the block. */
function classBody(definition: Node): Node[] {
  return definition.namedChildren.filter((child) => child.field === 'body' || child.type === 'ERROR');
}

/** Definitions directly in a block, unwrapping decorators. */
function definitionsIn(block: Node | null): Node[] {
  return statementsOf(block).flatMap((child) => {
    if (child.type === 'decorated_definition') {
      const inner = child.childForFieldName('definition');
      return inner ? [inner] : [];
    }
    return [child];
  });
}

function walk(node: Node, visit: (node: Node) => boolean | void): void {
  if (visit(node) === false) return;
  for (const child of node.namedChildren) walk(child, visit);
}

function firstError(root: Node): { line: number; column: number } | undefined {
  if (!root.hasError) return undefined;
  // Error recovery may wrap a whole module in one ERROR: the innermost first error is where it is.
  let at = root;
  for (let inner = at.children.find((child) => child.hasError); inner; inner = at.children.find((child) => child.hasError)) at = inner;
  return { line: lineOf(at), column: at.startPosition.column + 1 };
}

/** `X.desired.resources[...]` — the desired composed resources of the response, by key. */
function isDesiredResources(subscript: Node): boolean {
  const value = dotted(subscript.childForFieldName('value'));
  return value !== undefined && (value === 'desired.resources' || value.endsWith('.desired.resources'));
}

/** A composed resource's key expression inside a `desired.resources[...]` subscript. */
function subscriptKey(subscript: Node): Node | undefined {
  return subscript.childForFieldName('subscript') ?? undefined;
}

/**
 * What a `desired.resources[k]` expression does, as an idiom form: climbs the attribute and call
 * chain it heads, `[].ready = READY_TRUE`, `[].resource.update()`, or `resource.update([])`.
 */
function desiredUse(subscript: Node): { idiom: 'resourceWrite' | 'readinessMark'; form: string } | undefined {
  let node = subscript;
  let chain = 'desired.resources[]';
  for (;;) {
    const parent = node.parent;
    if (!parent) return undefined;
    if (parent.type === 'attribute' && parent.childForFieldName('object')?.equals(node)) {
      chain += `.${parent.childForFieldName('attribute')?.text ?? '?'}`;
      node = parent;
      continue;
    }
    if (parent.type === 'call' && parent.childForFieldName('function')?.equals(node)) {
      chain += '()';
      return { idiom: 'resourceWrite', form: chain };
    }
    if (parent.type === 'assignment' && parent.childForFieldName('left')?.equals(node)) {
      const right = parent.childForFieldName('right');
      const value = right ? (calleeName(right) ?? compact(right.text)) : '?';
      return chain.endsWith('.ready') ? { idiom: 'readinessMark', form: `${chain} = ${value}` } : { idiom: 'resourceWrite', form: `${chain} =` };
    }
    if (parent.type === 'argument_list') {
      const call = parent.parent;
      const callee = call ? dotted(call.childForFieldName('function')) : undefined;
      return callee ? { idiom: 'resourceWrite', form: `${callee.replace(/^self\./, '')}(${chain})` } : undefined;
    }
    return undefined;
  }
}

/** The condition of the innermost `if` around `node`, within `stop`. */
function enclosingCondition(node: Node, stop: Node): Node | undefined {
  for (let at = node.parent; at && !at.equals(stop); at = at.parent) {
    if (at.type === 'if_statement') return at.childForFieldName('condition') ?? undefined;
  }
  return undefined;
}

/** What a readiness decision consults: module constants, call targets, string subscripts. */
function consulted(condition: Node, constants: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  walk(condition, (node) => {
    if (node.type === 'identifier' && constants.has(node.text)) out.add(node.text);
    if (node.type === 'call') {
      const callee = dotted(node.childForFieldName('function'));
      if (callee) out.add(`${callee.replace(/^self\./, '')}()`);
    }
    if (node.type === 'subscript') {
      const index = node.childForFieldName('subscript');
      const pattern = index ? keyPatternOf(index) : undefined;
      if (pattern !== undefined) out.add(`["${pattern}"]`);
    }
  });
  return [...out].sort();
}

/**
 * Literal keys an expression stands for inside one function: a string itself, or a local name bound
 * to strings — by assignment (`key = f"nodepool-{...}"`) or as a loop target over literal tuples
 * (`for key, api in (("provider-config-helm", HELM), ...)`).
 */
function literalPatterns(expression: Node, body: Node): Array<{ pattern: string; line: number }> {
  const own = keyPatternOf(expression);
  if (own !== undefined) return [{ pattern: own, line: lineOf(expression) }];
  if (expression.type !== 'identifier') return [];
  const name = expression.text;
  const out: Array<{ pattern: string; line: number }> = [];
  walk(body, (node) => {
    if (node.type === 'function_definition' || node.type === 'class_definition') return false;
    if (node.type === 'assignment' && node.childForFieldName('left')?.text === name) {
      const right = node.childForFieldName('right');
      const pattern = right ? keyPatternOf(right) : undefined;
      if (right && pattern !== undefined) out.push({ pattern, line: lineOf(right) });
    }
    if (node.type === 'for_statement') {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      if (!left || !right) return;
      const targets = left.type === 'pattern_list' || left.type === 'tuple_pattern' ? left.namedChildren : [left];
      const position = targets.findIndex((target) => target.type === 'identifier' && target.text === name);
      if (position < 0) return;
      const rows = right.type === 'tuple' || right.type === 'list' ? right.namedChildren : [];
      for (const row of rows) {
        const item = targets.length === 1 ? row : (row.type === 'tuple' || row.type === 'list' ? row.namedChildren[position] : undefined);
        const pattern = item ? keyPatternOf(item) : undefined;
        if (item && pattern !== undefined) out.push({ pattern, line: lineOf(item) });
      }
    }
  });
  return out;
}

/** Literal patterns of local names, looked up once per name and function. */
type Bindings = Map<string, Array<{ pattern: string; line: number }>>;

function argumentOf(expression: Node, params: string[], body: Node, bindings: Bindings): Argument {
  if (expression.type === 'identifier' && params.includes(expression.text)) return { kind: 'param', index: params.indexOf(expression.text) };
  let patterns: Array<{ pattern: string; line: number }>;
  if (expression.type === 'identifier') {
    patterns = bindings.get(expression.text) ?? literalPatterns(expression, body);
    bindings.set(expression.text, patterns);
  } else {
    patterns = literalPatterns(expression, body);
  }
  return patterns.length ? { kind: 'key', patterns } : { kind: 'other' };
}

function functionFact(definition: Node, qualified: string, file: string, isMethod: boolean, constants: ReadonlySet<string>, forms: FormFact[]): FunctionFact {
  const names = (definition.childForFieldName('parameters')?.namedChildren ?? []).map(parameterName);
  const all = names.filter((name): name is string => name !== undefined);
  const params = isMethod && (all[0] === 'self' || all[0] === 'cls') ? all.slice(1) : all;
  const body = definition.childForFieldName('body')!;
  const bindings: Bindings = new Map();
  const fact: FunctionFact = { qualified, name: qualified.split('.').pop()!, file, line: lineOf(definition), params, writesKeyParams: [], writesKeys: [], calls: [] };
  walk(body, (node) => {
    // Nested definitions are their own functions; the outline does not descend into them.
    if (node.type === 'function_definition' || node.type === 'class_definition') return false;
    if (node.type === 'subscript' && isDesiredResources(node)) {
      const use = desiredUse(node);
      if (use) {
        forms.push({ idiom: use.idiom, form: use.form, line: lineOf(node) });
        if (use.idiom === 'readinessMark') {
          const condition = enclosingCondition(node, body);
          for (const form of condition ? consulted(condition, constants) : ['always']) forms.push({ idiom: 'readinessBy', form, line: lineOf(condition ?? node) });
        }
      }
      const key = subscriptKey(node);
      if (key && use?.idiom === 'resourceWrite') {
        const argument = argumentOf(key, params, body, bindings);
        if (argument.kind === 'param' && !fact.writesKeyParams.includes(argument.index)) fact.writesKeyParams.push(argument.index);
        if (argument.kind === 'key') fact.writesKeys.push(...argument.patterns);
      }
    }
    if (node.type === 'call') {
      const target = node.childForFieldName('function');
      const callee = calleeName(target);
      const full = dotted(target);
      if (full && /(^|\.)results\.(add|append|extend)$/.test(full)) forms.push({ idiom: 'results', form: `${full.replace(/^.*results\./, 'results.')}()`, line: lineOf(node) });
      if (callee) {
        const args: Argument[] = [];
        const keywords: Record<string, Argument> = {};
        for (const argument of node.childForFieldName('arguments')?.namedChildren ?? []) {
          if (argument.type === 'keyword_argument') {
            const name = argument.childForFieldName('name')?.text;
            const value = argument.childForFieldName('value');
            if (name && value) keywords[name] = argumentOf(value, params, body, bindings);
          } else if (argument.type !== 'comment') {
            args.push(argumentOf(argument, params, body, bindings));
          }
        }
        fact.calls.push({ callee, args, keywords });
      }
    }
  });
  return fact;
}

/** Reduces one parsed Python file. `path` is relative to the provider's source root. */
export function outlinePythonFile(path: string, root: Node): FileFacts {
  const lines: Array<[string, number]> = [];
  const forms: FormFact[] = [];
  const imports = new Set<string>();
  const sdkAliases = new Set<string>();
  const constants: Record<string, NamingStyle> = {};
  const classes: Record<string, ClassOutline> = {};
  const functions: Record<string, FunctionOutline> = {};
  const facts: FunctionFact[] = [];

  for (const statement of statementsOf(root)) {
    if (statement.type === 'import_statement') {
      for (const name of statement.namedChildren) {
        const module = name.type === 'aliased_import' ? name.childForFieldName('name')?.text : name.text;
        const alias = name.type === 'aliased_import' ? name.childForFieldName('alias')?.text : undefined;
        if (!module) continue;
        imports.add(alias ? `${module} as ${alias}` : module);
        if (module.startsWith(SDK_ROOT)) sdkAliases.add(alias ?? module);
      }
    }
    if (statement.type === 'import_from_statement') {
      const module = statement.childForFieldName('module_name')?.text ?? '';
      for (const name of statement.childrenForFieldName('name')) {
        const imported = name.type === 'aliased_import' ? name.childForFieldName('name')?.text : name.text;
        const alias = name.type === 'aliased_import' ? name.childForFieldName('alias')?.text : undefined;
        if (!imported) continue;
        imports.add(`${module}.${imported}${alias ? ` as ${alias}` : ''}`);
        if (module.startsWith(SDK_ROOT)) sdkAliases.add(alias ?? imported);
      }
    }
    if (statement.type === 'expression_statement') {
      const assignment = statement.namedChildren[0];
      const left = assignment?.type === 'assignment' ? assignment.childForFieldName('left') : undefined;
      if (left?.type === 'identifier' && !/^__.*__$/.test(left.text)) {
        constants[left.text] = namingStyle(left.text);
        lines.push([`const:${path}:${left.text}`, lineOf(left)]);
      }
    }
  }
  const constantNames = new Set(Object.keys(constants));

  for (const definition of definitionsIn(root)) {
    if (definition.type === 'function_definition') {
      const name = definition.childForFieldName('name')!.text;
      functions[name] = functionOutline(definition);
      lines.push([`def:${name}`, lineOf(definition)]);
      facts.push(functionFact(definition, name, path, false, constantNames, forms));
    }
    if (definition.type === 'class_definition') {
      const name = definition.childForFieldName('name')!.text;
      const body = classBody(definition);
      const methods: Record<string, FunctionOutline> = {};
      for (const method of body.flatMap(definitionsIn)) {
        if (method.type !== 'function_definition') continue;
        const methodName = method.childForFieldName('name')!.text;
        methods[methodName] = functionOutline(method);
        lines.push([`def:${name}.${methodName}`, lineOf(method)]);
        facts.push(functionFact(method, `${name}.${methodName}`, path, true, constantNames, forms));
      }
      const bases = (definition.childForFieldName('superclasses')?.namedChildren ?? []).map((base) => dotted(base) ?? compact(base.text));
      classes[name] = { bases, docstring: body.some(hasDocstring), methods: sortedRecord(methods) };
      lines.push([`def:${name}`, lineOf(definition)]);
    }
  }

  // SDK call targets anywhere in the file, and the SDK's result helpers among them.
  const sdkCalls = new Set<string>();
  walk(root, (node) => {
    if (node.type !== 'call' && node.type !== 'decorator') return;
    const target = node.type === 'call' ? node.childForFieldName('function') : node.namedChildren[0] ?? null;
    const callee = dotted(target);
    if (!callee) return;
    const [base, member] = callee.split('.');
    if (!base || !member || !sdkAliases.has(base)) return;
    const name = `${base}.${member}`;
    if (!sdkCalls.has(name)) lines.push([`sdk:${name}`, lineOf(node)]);
    sdkCalls.add(name);
    if (base === 'response' && RESULT_HELPERS.has(member)) forms.push({ idiom: 'results', form: `${name}()`, line: lineOf(node) });
  });

  const error = root.hasError ? firstError(root) : undefined;
  const outline: ModuleOutline = {
    module: moduleName(path),
    kind: fileKind(path),
    docstring: hasDocstring(root),
    imports: [...imports].sort(),
    constants: sortedRecord(constants),
    classes: sortedRecord(classes),
    functions: sortedRecord(functions),
    sdkCalls: [...sdkCalls].sort(),
    ...(error ? { syntaxError: true as const } : {}),
  };
  return { outline, functions: facts, forms, lines, ...(error ? { syntaxError: error } : {}) };
}

export function sortedRecord<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
