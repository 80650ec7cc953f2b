import { escapeRegExp } from '../util/objects.js';
import { chainsOf, useAt, type Chain, type FlowFacts } from './flow.js';
import { descendants, nodeAt, type SyntaxNode as Node } from './syntax.js';
import type { ClassOutline, ConstantOutline, FileKind, FunctionOutline, ModuleOutline, NamingStyle } from './types.js';

/**
 * One Python file's syntax tree reduced to its outline and to the facts the provider-level outline
 * links across files (who writes composed resources, which literal keys reach them, who calls whom,
 * where a gate is checked). The facts come from the tree-sitter queries under `queries/python/`
 * (one fact each), matched once per file; this module only reads what they captured, climbing
 * parents where it must: nothing here recurses on the tree, so nesting depth cannot overflow it.
 * Pure: captures in, data out; positions are 1-based lines.
 */

/** One query match: the query's name (its file, `call.scm` → `call`) and each capture's node. */
export interface Match {
  query: string;
  nodes: Record<string, Node>;
}

/** A value passed to a call, as far as the outline needs to know it. */
export type Argument =
  | { kind: 'key'; patterns: Array<{ pattern: string; line: number }> }
  | { kind: 'param'; index: number }
  | { kind: 'other'; call?: string };

/** How a statement is gated inside its function: nested in an `if`, after an early return, or not. */
export interface SiteGate {
  kind: 'if' | 'return' | 'none';
  /** Plain or `self.` call targets in the gating condition (a helper that decides the gate). */
  calls: string[];
  line: number;
  /**
   * Every condition the statement waits on inside its function, outermost first (enclosing `if`s and
   * the body's early returns before it), each with the string literals its condition names (`cluster`
   * of `"cluster" in self.observed_resources`): which of several nested gates decides is a question of
   * what the condition reads, asked by findings (src/compare/where.ts).
   */
  chain: GateStep[];
}

/** One condition of a gate chain. */
export interface GateStep {
  line: number;
  /** String literals in the condition, as key patterns, sorted. */
  keys: string[];
}

export interface CallFact {
  /** The called function's own name (`self._desire` → `_desire`), when it is a plain name. */
  callee: string;
  /** Positional arguments by index; keyword arguments by name. */
  args: Argument[];
  keywords: Record<string, Argument>;
  line: number;
  gate: SiteGate;
  /** What each positional argument derives from, and each keyword argument's (the request's data flow). */
  flows: Chain[][];
  keywordFlows: Record<string, Chain[]>;
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
  writesKeys: Array<{ pattern: string; line: number; gate: SiteGate }>;
  calls: CallFact[];
  /** What the body binds and reads, for the request's data flow across the provider (requestFlow.ts). */
  flow: FlowFacts;
  /** Local functions whose call the body returns (`return self._cloud(...)`): who builds what it returns. */
  returnsCalls: string[];
}

/** An idiom form with where it first appears. */
export interface FormFact {
  idiom: 'resourceWrite' | 'readinessMark' | 'readinessBy' | 'readinessShape' | 'results';
  form: string;
  line: number;
}

/** A string literal in a function body, for named-vs-literal constants. */
export interface LiteralFact {
  value: string;
  line: number;
  /** Where the value goes, in the words of a constant's `usedAs` (useOf). */
  use: string;
}

/** An `except` clause of a `try` (or a `with suppress(...)`) inside a function: what it catches, and whether it swallows it. */
export interface HandlerFact {
  /** The function holding the `try` (`Composer.compose_identity`, `FunctionRunner.RunFunction`). */
  qualified: string;
  /** The `except` line (the `with` line of a `suppress`). */
  line: number;
  /** It catches everything: a bare `except:`, `Exception` or `BaseException` (alone or in a tuple). */
  broad: boolean;
  /** Its block neither raises nor emits a result (`response.fatal`, `.warning`, `.normal`): the error is gone. */
  swallows: boolean;
  /** Plain or `self.` names the guarded block calls (the provider's helpers among them read what it reads). */
  calls: string[];
}

export interface FileFacts {
  outline: ModuleOutline;
  /** Every `except` clause and `with suppress(...)` inside a function, in source order. */
  handlers: HandlerFact[];
  functions: FunctionFact[];
  forms: FormFact[];
  literals: LiteralFact[];
  /** `def:…`, `class:…`, `const:…`, `import:…`, `call:…`, `sdk:…` → line. */
  lines: Array<[string, number]>;
  /** Each class's annotated fields in order (a dataclass's or NamedTuple's constructor parameters). */
  fields: Record<string, string[]>;
  syntaxError?: { line: number; column: number };
}

/** Results the SDK's response module emits, and the attribute a raw result is appended through. */
const RESULT_HELPERS = new Set(['normal', 'warning', 'fatal']);
const SDK_ROOT = 'crossplane.function';
/** Bases and decorators that make a class a record: a data shape, not behaviour. */
const RECORD_SHAPES: ReadonlyMap<string, string> = new Map([
  ['dataclass', 'dataclass'],
  ['dataclasses.dataclass', 'dataclass'],
  ['NamedTuple', 'namedtuple'],
  ['typing.NamedTuple', 'namedtuple'],
  ['TypedDict', 'typeddict'],
  ['typing.TypedDict', 'typeddict'],
]);

/** A label or annotation key or an apiVersion: `modelplane.ai/pool`, `storage.k8s.io/v1`. */
const QUALIFIED_NAME = /^[a-z0-9-]+(\.[a-z0-9-]+)+\/[A-Za-z0-9._-]+$/;

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
  const names: string[] = [];
  for (let at = node; at; ) {
    if (at.type === 'identifier') {
      names.unshift(at.text);
      return names.join('.');
    }
    if (at.type !== 'attribute') return undefined;
    const attribute = at.childForFieldName('attribute');
    if (!attribute) return undefined;
    names.unshift(attribute.text);
    at = at.childForFieldName('object');
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

/** A local call target: a plain name or a method of `self`/`cls`, not a module's function. */
function localCallee(node: Node | null): string | undefined {
  if (node?.type === 'identifier') return node.text;
  const full = dotted(node);
  const match = full ? /^(?:self|cls)\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(full) : null;
  return match?.[1];
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

/** The key patterns an expression may evaluate to: a string, or either branch of a conditional expression (`f"a-{x}" if c else f"b-{x}"`). */
function keyPatternsOf(node: Node): string[] {
  if (node.type === 'parenthesized_expression' && node.namedChildren[0]) return keyPatternsOf(node.namedChildren[0]);
  if (node.type === 'conditional_expression') return [node.namedChildren[0], node.namedChildren[2]].flatMap((branch) => (branch ? keyPatternsOf(branch) : []));
  const own = keyPatternOf(node);
  return own === undefined ? [] : [own];
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
      return `${name ? compact(name.text) : '?'}: ${compact(field('type')?.text ?? '')}`;
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
  const at = node.type === 'typed_parameter' ? node.namedChildren.find((child) => child.type !== 'type') : node;
  switch (at?.type) {
    case 'identifier':
      return at.text;
    case 'default_parameter':
    case 'typed_default_parameter':
      return at.childForFieldName('name')?.text;
    case 'list_splat_pattern':
    case 'dictionary_splat_pattern':
      return at.namedChildren[0]?.text;
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

/**
 * What holds a definition or statement: the nearest module, class or function, past the blocks,
 * decorators and error-recovery nodes between them.
 */
function holder(node: Node): Node | undefined {
  for (let at = node.parent; at; at = at.parent) {
    if (at.type === 'module' || at.type === 'class_definition' || at.type === 'function_definition') return at;
  }
  return undefined;
}

/** Appends in place: a body's list grows by one per identifier, and copying it on each append made a long body quadratic. */
function appendTo<K, V>(lists: Map<K, V[]>, key: K, item: V): void {
  const list = lists.get(key);
  if (list) list.push(item);
  else lists.set(key, [item]);
}

/** The function whose body holds `node` (nested definitions are their own functions). */
function ownerFunction(node: Node): Node | undefined {
  for (let at = node.parent; at; at = at.parent) {
    if (at.type === 'function_definition') return at;
    if (at.type === 'class_definition' || at.type === 'lambda') return undefined;
  }
  return undefined;
}

/** Whether a statement sits directly in the module (error recovery may wrap it in ERROR nodes). */
function atTopLevel(statement: Node): boolean {
  for (let at = statement.parent; at; at = at.parent) {
    if (at.type === 'module') return true;
    if (at.type !== 'ERROR') return false;
  }
  return false;
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
    ...(!returns && !returnsValue(definition) ? { returns: 'None' as const } : {}),
  };
}

/** Whether a `return` of this function (not of a function nested in it) hands back a value. */
function returnsValue(definition: Node): boolean {
  for (const node of descendants(definition.childForFieldName('body')!)) if (node.type === 'return_statement' && node.namedChildren.length > 0 && ownerFunction(node) === definition) return true;
  return false;
}

function firstError(root: Node): { line: number; column: number } | undefined {
  if (!root.hasError) return undefined;
  // Error recovery may wrap a whole module in one ERROR: the innermost first error is where it is.
  let at = root;
  for (let inner = at.children.find((child) => child.hasError); inner; inner = at.children.find((child) => child.hasError)) at = inner;
  return { line: lineOf(at), column: at.startPosition.column + 1 };
}

/** `X.desired.resources[...]` — the desired composed resources of the response, by key. */
function isDesiredResources(owner: Node): boolean {
  const value = dotted(owner);
  return value !== undefined && (value === 'desired' || value.endsWith('.desired'));
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

/** The innermost `if` (or conditional expression) around `node`, within `stop`. */
function enclosingIf(node: Node, stop: Node): Node | undefined {
  for (let from = node, at = node.parent; at && !at.equals(stop); from = at, at = at.parent) {
    // What a condition itself calls is not gated by it.
    if ((at.type === 'if_statement' || at.type === 'conditional_expression' || at.type === 'elif_clause') && !conditionOf(at)?.equals(from)) return at;
  }
  return undefined;
}

function conditionOf(gate: Node): Node | undefined {
  if (gate.type === 'conditional_expression') return gate.namedChildren[1];
  return gate.childForFieldName('condition') ?? undefined;
}

/** Local call targets in a condition: the helpers that decide a gate. */
function conditionCalls(condition: Node): string[] {
  const out = new Set<string>();
  for (const node of descendants(condition)) {
    if (node.type === 'call') {
      const callee = localCallee(node.childForFieldName('function'));
      if (callee) out.add(callee);
    }
  }
  return [...out].sort();
}

/**
 * Where the statement at `node` is gated inside `body`: nested in a condition, or after one of the
 * body's own early returns (`if x: return` directly in the body, before the statement).
 */
function siteGate(node: Node, body: Node, earlyReturns: readonly Node[]): SiteGate {
  const before = earlyReturns.filter((gate) => gate.parent?.equals(body) && lineOf(gate) < lineOf(node));
  const chain = [...before, ...enclosingIfs(node, body).filter((gate) => !earlyReturns.includes(gate))]
    .flatMap((gate) => {
      const condition = conditionOf(gate);
      return condition ? [{ line: lineOf(gate), keys: conditionKeys(condition) }] : [];
    })
    .sort((a, b) => a.line - b.line);
  const around = enclosingIf(node, body);
  const condition = around ? conditionOf(around) : undefined;
  if (around && condition && !earlyReturns.includes(around)) return { kind: 'if', calls: conditionCalls(condition), line: lineOf(around), chain };
  const last = before[before.length - 1];
  const lastCondition = last ? conditionOf(last) : undefined;
  if (last && lastCondition) return { kind: 'return', calls: conditionCalls(lastCondition), line: lineOf(last), chain };
  return { kind: 'none', calls: [], line: lineOf(node), chain };
}

/** Every `if` (or conditional expression) around `node` within `stop`, innermost first. */
function enclosingIfs(node: Node, stop: Node): Node[] {
  const out: Node[] = [];
  for (let from = node, at = node.parent; at && !at.equals(stop); from = at, at = at.parent) {
    if ((at.type === 'if_statement' || at.type === 'conditional_expression' || at.type === 'elif_clause') && !conditionOf(at)?.equals(from)) out.push(at);
  }
  return out;
}

/** The string literals a condition names, as key patterns, sorted. */
function conditionKeys(condition: Node): string[] {
  const out = new Set<string>();
  for (const node of descendants(condition)) {
    const key = node.type === 'string' ? keyPatternOf(node) : undefined;
    if (key) out.add(key);
  }
  return [...out].sort();
}

/** What a readiness decision consults: module constants, call targets, string subscripts. */
function consulted(condition: Node, constants: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  for (const node of descendants(condition)) {
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
  }
  return [...out].sort();
}

/**
 * The shape of a readiness mark: inside a loop over the desired resources or one key at a time, and
 * whether the decision singles out a literal key (`key == "cluster"`), a special case inside the loop.
 */
function readinessShape(mark: Node, body: Node): Array<{ form: string; line: number }> {
  let loop: Node | undefined;
  for (let at = mark.parent; at && !at.equals(body); at = at.parent) if (at.type === 'for_statement') loop = at;
  const out = [{ form: loop ? `loop over ${compact(loop.childForFieldName('right')?.text ?? '?').replace(/self\./g, '')}` : 'one key at a time', line: lineOf(mark) }];
  // A special case compares the loop's key with a literal: `key == "cluster"`.
  const target = loop?.childForFieldName('left');
  if (loop && target?.type === 'identifier') {
    for (const node of descendants(loop)) {
      if (node.type !== 'comparison_operator') continue;
      const literal = node.namedChildren.some((child) => child.type === 'string');
      const onKey = node.namedChildren.some((child) => child.type === 'identifier' && child.text === target.text);
      const op = node.children.find((child) => !child.isNamed)?.text;
      if (literal && onKey && (op === '==' || op === '!=')) {
        // Placed at the comparison: that is the line a reviewer changes.
        out.push({ form: 'special case on a literal key', line: lineOf(node) });
        break;
      }
    }
  }
  return out;
}

/** Literal keys bound to a local name in one body (its assignments and loops): by assignment, or as a loop target over literal rows. */
function bindingsOf(name: string, assignments: readonly Match[], loops: readonly Match[]): Array<{ pattern: string; line: number }> {
  const out: Array<{ pattern: string; line: number }> = [];
  for (const match of assignments) {
    if (match.nodes.name!.text !== name) continue;
    for (const pattern of keyPatternsOf(match.nodes.value!)) out.push({ pattern, line: lineOf(match.nodes.value!) });
  }
  for (const match of loops) {
    const left = match.nodes.target!;
    const right = match.nodes.iterable!;
    const targets = left.type === 'pattern_list' || left.type === 'tuple_pattern' ? left.namedChildren : [left];
    const position = targets.findIndex((target) => target.type === 'identifier' && target.text === name);
    if (position < 0) continue;
    const rows = right.type === 'tuple' || right.type === 'list' ? right.namedChildren : [];
    for (const row of rows) {
      const item = targets.length === 1 ? row : row.type === 'tuple' || row.type === 'list' ? row.namedChildren[position] : undefined;
      const pattern = item ? keyPatternOf(item) : undefined;
      if (item && pattern !== undefined) out.push({ pattern, line: lineOf(item) });
    }
  }
  return out;
}

/** How a module constant is written: a string's value, a type alias's text, or its shape. */
function constantOutline(name: string, value: Node | undefined, annotation: Node | null): ConstantOutline {
  const style = { style: namingStyle(name), ...(annotation ? { annotated: true as const } : {}) };
  if (!value) return style;
  if (value.type === 'string' && !value.namedChildren.some((child) => child.type === 'interpolation')) return { ...style, value: keyPatternOf(value) ?? '' };
  // `Manifest = dict[str, Any]`, `Pool = A | B`, `Request = fnv1.RunFunctionRequest`: a class's other name.
  const classLike = (value.type === 'attribute' || value.type === 'identifier') && /(^|\.)[A-Z][A-Za-z0-9]*$/.test(value.text) && !/^[A-Z0-9_]+$/.test(value.text.split('.').pop()!);
  const typeAlias = annotation?.text === 'TypeAlias' || (style.style === 'PascalCase' && (value.type === 'subscript' || classLike || (value.type === 'binary_operator' && value.text.includes('|'))));
  if (typeAlias) return { ...style, alias: compact(value.text) };
  const shapes: Record<string, string> = { dictionary: 'dict', tuple: 'tuple', list: 'list', set: 'set', integer: 'number', float: 'number', call: 'call' };
  return { ...style, shape: shapes[value.type] ?? 'other' };
}

/** Containers a value sits in on its way to where it is used. */
const CONTAINERS = new Set(['list', 'tuple', 'set', 'parenthesized_expression', 'expression_list']);

/**
 * Where a constant's value goes, in words that do not depend on the names around it: the dict key it
 * is the value of (`"name":`), the keyword it is passed as (`storage_class=`), an argument of a call
 * (`argument of get_required_resource`), else the kind of statement or expression that holds it.
 */
function useOf(identifier: Node): string {
  let at = identifier;
  while (at.parent && CONTAINERS.has(at.parent.type)) at = at.parent;
  const parent = at.parent;
  if (!parent) return 'module';
  if (parent.type === 'pair' && parent.childForFieldName('key') === at) return 'a dict key';
  if (parent.type === 'pair') {
    const key = parent.childForFieldName('key')!;
    return `${key.type === 'string' ? JSON.stringify(keyPatternOf(key) ?? '') : compact(key.text)}:`;
  }
  if (parent.type === 'keyword_argument') return `${parent.childForFieldName('name')?.text ?? ''}=`;
  if (parent.type === 'argument_list') {
    const callee = parent.parent?.childForFieldName('function');
    return `argument of ${callee ? (dotted(callee) ?? compact(callee.text)).split('.').pop() : 'a call'}`;
  }
  return parent.type.replaceAll('_', ' ');
}

/** What a section banner stands above. */
const DEFINITIONS: ReadonlySet<string> = new Set(['function_definition', 'class_definition', 'decorated_definition']);

/** Reduces one parsed Python file, from its query matches. `path` is relative to the provider's source root. */
export function outlinePythonFile(path: string, root: Node, matches: readonly Match[]): FileFacts {
  const grouped = new Map<string, Match[]>();
  for (const match of matches) appendTo(grouped, match.query, match);
  const of = (query: string) => grouped.get(query) ?? [];
  const lines: Array<[string, number]> = [];
  const forms: FormFact[] = [];
  const literals: LiteralFact[] = [];
  const imports = new Set<string>();
  const sdkAliases = new Set<string>();
  const constants: Record<string, ConstantOutline> = {};

  const addImport = (text: string, statement: Node) => {
    if (!imports.has(text)) lines.push([`import:${path}:${text}`, lineOf(statement)]);
    imports.add(text);
  };
  for (const { nodes } of of('import')) {
    const name = nodes.name!;
    const module = name.type === 'aliased_import' ? name.childForFieldName('name')?.text : name.text;
    const alias = name.type === 'aliased_import' ? name.childForFieldName('alias')?.text : undefined;
    if (!module) continue;
    addImport(alias ? `${module} as ${alias}` : module, nodes.statement!);
    if (module.startsWith(SDK_ROOT)) sdkAliases.add(alias ?? module);
  }
  for (const { nodes } of of('import_from')) {
    const module = nodes.module!.text;
    const name = nodes.name!;
    const imported = name.type === 'aliased_import' ? name.childForFieldName('name')?.text : name.text;
    const alias = name.type === 'aliased_import' ? name.childForFieldName('alias')?.text : undefined;
    if (!imported) continue;
    addImport(`${module}.${imported}${alias ? ` as ${alias}` : ''}`, nodes.statement!);
    if (module.startsWith(SDK_ROOT)) sdkAliases.add(alias ?? imported);
  }
  const assignments = of('assignment');
  for (const { nodes } of assignments) {
    const statement = nodes.assignment!.parent;
    const name = nodes.name!.text;
    if (statement?.type !== 'expression_statement' || !atTopLevel(statement) || /^__.*__$/.test(name) || name in constants) continue;
    constants[name] = constantOutline(name, nodes.value, nodes.assignment!.childForFieldName('type'));
    lines.push([`const:${path}:${name}`, lineOf(nodes.name!)]);
  }
  const constantNames = new Set(Object.keys(constants));

  // Definitions: module functions and classes, and each class's methods, in source order.
  const definitions = of('definition').map((match) => match.nodes.definition!);
  const facts = new Map<Node, FunctionFact>();
  const functions: Record<string, FunctionOutline> = {};
  const classes: Record<string, ClassOutline> = {};
  const order: string[] = [];
  const classOrder = new Map<Node, string[]>();
  const fields: Record<string, string[]> = {};
  const qualifiedOf = new Map<Node, string>();
  for (const definition of definitions) {
    const name = definition.childForFieldName('name')!.text;
    const within = holder(definition);
    if (within?.type === 'module') {
      qualifiedOf.set(definition, name);
      order.push(name);
      if (definition.type === 'class_definition') classOrder.set(definition, []);
    } else if (within?.type === 'class_definition' && definition.type === 'function_definition' && holder(within)?.type === 'module') {
      qualifiedOf.set(definition, `${within.childForFieldName('name')!.text}.${name}`);
      classOrder.get(within)?.push(name);
    }
  }

  const calls = of('call');
  // Each body's matches, found once: a function reads only its own.
  const byOwner = (query: string, capture: string) => {
    const out = new Map<Node, Match[]>();
    for (const match of of(query)) {
      const owner = ownerFunction(match.nodes[capture]!);
      if (owner) appendTo(out, owner, match);
    }
    return out;
  };
  const callsIn = byOwner('call', 'call');
  const desiredIn = byOwner('desired', 'subscript');
  const assignmentsIn = byOwner('assignment', 'assignment');
  const loopsIn = byOwner('loop', 'loop');
  const earlyReturns = new Map<Node, Node[]>();
  for (const { nodes } of of('early_return')) {
    const owner = ownerFunction(nodes.gate!);
    if (owner) appendTo(earlyReturns, owner, nodes.gate!);
  }
  // Every identifier and every string literal: a filter of the copied nodes by type rather than a
  // query pattern of one node, which cost more to match and hand over than reading the nodes here
  // (together they are half a file's captures).
  const namesIn = new Map<Node, Node[]>();
  const strings: Node[] = [];
  for (const node of root.inOrder() ?? []) {
    // A name a body uses, for the request's data flow: the root of what it reads (`req.observed.resources[k]`, `observed`, `self.rsp`).
    if (node.type === 'identifier') {
      const owner = ownerFunction(node);
      if (owner) appendTo(namesIn, owner, node);
    } else if (node.type === 'string') strings.push(node);
  }
  const bindingsIn = byOwner('flow', 'binding');
  for (const [definition, qualified] of qualifiedOf) {
    if (definition.type !== 'function_definition') continue;
    const isMethod = qualified.includes('.');
    const names = (definition.childForFieldName('parameters')?.namedChildren ?? []).map(parameterName);
    const all = names.filter((name): name is string => name !== undefined);
    const params = isMethod && (all[0] === 'self' || all[0] === 'cls') ? all.slice(1) : all;
    const body = definition.childForFieldName('body')!;
    const returns = earlyReturns.get(definition) ?? [];
    const bindings = new Map<string, Array<{ pattern: string; line: number }>>();
    const argumentOf = (expression: Node): Argument => {
      if (expression.type === 'identifier' && params.includes(expression.text)) return { kind: 'param', index: params.indexOf(expression.text) };
      let patterns: Array<{ pattern: string; line: number }>;
      if (expression.type === 'identifier') {
        patterns = bindings.get(expression.text) ?? bindingsOf(expression.text, assignmentsIn.get(definition) ?? [], loopsIn.get(definition) ?? []);
        bindings.set(expression.text, patterns);
      } else {
        patterns = keyPatternsOf(expression).map((pattern) => ({ pattern, line: lineOf(expression) }));
      }
      if (patterns.length) return { kind: 'key', patterns };
      // A body built by a local function (`self._node_pool(pool)`): where that body is made.
      const built = expression.type === 'call' ? localCallee(expression.childForFieldName('function')) : undefined;
      return built ? { kind: 'other', call: built } : { kind: 'other' };
    };
    const flow = flowOf(definition, body, isMethod, sdkAliases, new Set(all), assignmentsIn.get(definition) ?? [], bindingsIn.get(definition) ?? [], loopsIn.get(definition) ?? [], namesIn.get(definition) ?? []);
    const shadow = new Set(all);
    const flowsOf = (value: Node) => chainsOf(value, sdkAliases, shadow);
    const fact: FunctionFact = { qualified, name: qualified.split('.').pop()!, file: path, line: lineOf(definition), params, writesKeyParams: [], writesKeys: [], calls: [], flow, returnsCalls: [] };
    facts.set(definition, fact);
    for (const { nodes } of desiredIn.get(definition) ?? []) {
      const subscript = nodes.subscript!;
      if (!isDesiredResources(nodes.owner!)) continue;
      const use = desiredUse(subscript);
      if (use) {
        forms.push({ idiom: use.idiom, form: use.form, line: lineOf(subscript) });
        if (use.idiom === 'readinessMark') {
          const around = enclosingIf(subscript, body);
          const condition = around ? conditionOf(around) : undefined;
          for (const form of condition ? consulted(condition, constantNames) : ['always']) forms.push({ idiom: 'readinessBy', form, line: lineOf(condition ?? subscript) });
          for (const { form, line } of readinessShape(subscript, body)) forms.push({ idiom: 'readinessShape', form, line });
        }
      }
      if (use?.idiom === 'resourceWrite') {
        const argument = argumentOf(nodes.key!);
        if (argument.kind === 'param' && !fact.writesKeyParams.includes(argument.index)) fact.writesKeyParams.push(argument.index);
        if (argument.kind === 'key') fact.writesKeys.push(...argument.patterns.map((key) => ({ ...key, gate: siteGate(subscript, body, returns) })));
      }
    }
    for (const { nodes } of callsIn.get(definition) ?? []) {
      const call = nodes.call!;
      const target = nodes.callee!;
      const full = dotted(target);
      if (full && /(^|\.)results\.(add|append|extend)$/.test(full)) forms.push({ idiom: 'results', form: `${full.replace(/^.*results\./, 'results.')}()`, line: lineOf(call) });
      const callee = calleeName(target);
      if (!callee) continue;
      const args: Argument[] = [];
      const keywords: Record<string, Argument> = {};
      const flows: Chain[][] = [];
      const keywordFlows: Record<string, Chain[]> = {};
      for (const argument of nodes.arguments!.namedChildren) {
        if (argument.type === 'keyword_argument') {
          const name = argument.childForFieldName('name')?.text;
          const value = argument.childForFieldName('value');
          if (name && value) {
            keywords[name] = argumentOf(value);
            keywordFlows[name] = flowsOf(value);
          }
        } else if (argument.type !== 'comment') {
          args.push(argumentOf(argument));
          flows.push(flowsOf(argument));
        }
      }
      fact.calls.push({ callee, args, keywords, line: lineOf(call), gate: siteGate(call, body, returns), flows, keywordFlows });
      const local = localCallee(target);
      if (local && call.parent?.type === 'return_statement' && !fact.returnsCalls.includes(local)) fact.returnsCalls.push(local);
      // The XR's status is written where the desired composite is handed to a write: the writer by what it writes.
      if (nodes.arguments!.namedChildren.some((argument) => /(^|\.)desired\.composite$/.test(dotted(argument) ?? ''))) lines.push([`status-write:${qualified}`, fact.line]);
    }
  }
  // Calls come from one query over the whole file: put each body's in source order.
  for (const fact of facts.values()) fact.calls.sort((a, b) => a.line - b.line);

  // Named-vs-literal constants, and keys.
  for (const string of strings) {
    if (!ownerFunction(string) || string.parent?.type === 'expression_statement') continue; // docstrings are prose
    const value = keyPatternOf(string);
    if (value !== undefined && !value.includes('{}')) literals.push({ value, line: lineOf(string), use: useOf(string) });
  }

  for (const [definition, qualified] of qualifiedOf) {
    const name = qualified.split('.').pop()!;
    const key = definition.type === 'class_definition' ? `class:${qualified}` : `def:${qualified}`;
    lines.push([key, lineOf(definition)], [`def:${qualified}`, lineOf(definition)]);
    if (definition.type === 'function_definition' && !qualified.includes('.')) functions[name] = functionOutline(definition);
  }
  for (const [definition, methodOrder] of classOrder) {
    const name = definition.childForFieldName('name')!.text;
    const methods: Record<string, FunctionOutline> = {};
    for (const [method, qualified] of qualifiedOf) {
      if (qualified.startsWith(`${name}.`) && holder(method) === definition) methods[qualified.slice(name.length + 1)] = functionOutline(method);
    }
    const body = definition.childForFieldName('body');
    const bases = (definition.childForFieldName('superclasses')?.namedChildren ?? []).map((base) => dotted(base) ?? compact(base.text));
    const shape = [...decoratorsOf(definition), ...bases].map((name) => RECORD_SHAPES.get(name)).find(Boolean);
    const sections = of('class_comment').filter(({ nodes }) => nodes.comment!.parent?.parent === definition).length;
    fields[name] = classFields(body);
    classes[name] = { bases, docstring: hasDocstring(body), methods: sortedRecord(methods), order: methodOrder, ...(shape ? { shape } : {}), ...(sections ? { comments: sections } : {}) };
    for (const { nodes } of of('class_comment')) if (nodes.comment!.parent?.parent === definition) lines.push([`comment:${name}`, lineOf(nodes.comment!)]);
  }

  // Section banners between module functions: module-level comments below the first definition that
  // head a definition (the ones above it head the file or its constants; a note on a statement is no banner).
  const firstDefinition = Math.min(...[...qualifiedOf].filter(([, qualified]) => !qualified.includes('.')).map(([definition]) => definition.startIndex));
  const headsDefinition = (comment: Node) => {
    const siblings = comment.parent?.namedChildren ?? [];
    const next = siblings.slice(siblings.indexOf(comment) + 1).find((sibling) => sibling.type !== 'comment');
    return next !== undefined && DEFINITIONS.has(next.type);
  };
  const banners = of('module_comment')
    .map(({ nodes }) => nodes.comment!)
    .filter((comment) => comment.startIndex > firstDefinition && headsDefinition(comment));
  if (banners[0]) lines.push([`comment:${path}`, lineOf(banners[0])]);

  // SDK call targets anywhere in the file, and the SDK's result helpers among them.
  const sdkCalls = new Set<string>();
  const sdkTargets = [
    ...calls.map(({ nodes }) => ({ node: nodes.call!, target: nodes.callee! })),
    ...of('decorator').map(({ nodes }) => ({ node: nodes.decorator!, target: nodes.target!.type === 'call' ? nodes.target!.childForFieldName('function') : nodes.target! })),
  ].sort((a, b) => lineOf(a.node) - lineOf(b.node));
  for (const { node, target } of sdkTargets) {
    const callee = dotted(target);
    if (!callee) continue;
    lines.push([`call:${path}:${callee}`, lineOf(node)]);
    const [base, member] = callee.split('.');
    if (!base || !member || !sdkAliases.has(base)) continue;
    const name = `${base}.${member}`;
    if (!sdkCalls.has(name)) lines.push([`sdk:${name}`, lineOf(node)]);
    sdkCalls.add(name);
    if (base === 'response' && RESULT_HELPERS.has(member) && node.type === 'call') {
      forms.push({ idiom: 'results', form: `${name}()`, line: lineOf(node) });
      // Each result call with the message it emits (f-string holes as `{}`), so an event finding names the call that says it.
      const message = node.childForFieldName('arguments')?.namedChildren[1];
      lines.push([`result:${member}:${lineOf(node)}:${message ? (keyPatternOf(message) ?? '{}') : ''}`, lineOf(node)]);
    }
  }

  // Where each string constant is used: a value two constants hold by chance (a VPC's range in one
  // cloud, a subnet's in another) lands in different places. An occurrence of the name counts only
  // where the tree holds an identifier (not in a string or a comment), inside a function.
  for (const [name, constant] of Object.entries(constants)) {
    if (constant.value === undefined) continue;
    const uses = new Set<string>();
    for (const occurrence of root.text.matchAll(new RegExp(`(?<![\\w.])${escapeRegExp(name)}\\b`, 'g'))) {
      const identifier = nodeAt(root, occurrence.index, occurrence.index + name.length, 'identifier');
      if (identifier && ownerFunction(identifier)) uses.add(useOf(identifier));
    }
    if (uses.size > 0) constants[name] = { ...constant, usedAs: [...uses].sort() };
  }

  const qualified: Record<string, string[]> = {};
  for (const literal of literals) if (QUALIFIED_NAME.test(literal.value)) qualified[literal.value] = [...new Set([...(qualified[literal.value] ?? []), literal.use])].sort();
  const error = root.hasError ? firstError(root) : undefined;
  const outline: ModuleOutline = {
    module: moduleName(path),
    kind: fileKind(path),
    docstring: hasDocstring(root),
    imports: [...imports].sort(),
    constants: sortedRecord(constants),
    classes: sortedRecord(classes),
    functions: sortedRecord(functions),
    order,
    ...(banners.length ? { comments: banners.length } : {}),
    ...(Object.keys(qualified).length ? { literals: sortedRecord(qualified) } : {}),
    sdkCalls: [...sdkCalls].sort(),
    ...(error ? { syntaxError: true as const } : {}),
  };
  const functionFacts = [...facts.values()].sort((a, b) => a.line - b.line);
  const handlers = handlerFacts(of('handler'), qualifiedOf);
  for (const handler of handlers) lines.push([`handler:${handler.qualified}:${handler.line}`, handler.line]);
  return { outline, functions: functionFacts, forms: forms.sort((a, b) => a.line - b.line), literals, lines, fields: sortedRecord(fields), handlers, ...(error ? { syntaxError: error } : {}) };
}

/** Exceptions that catch every error a read can raise, a typo's `AttributeError` included. */
const BROAD_EXCEPTIONS: ReadonlySet<string> = new Set(['Exception', 'BaseException', 'builtins.Exception', 'builtins.BaseException']);

/** What an `except` clause catches (`except E as err:` parses as an as_pattern in some grammar versions), and its block. */
function excepted(handler: Node): { caught: Node[]; bare: boolean; block: Node | undefined } {
  const caught = handler.childrenForFieldName('value').map((node) => (node.type === 'as_pattern' ? (node.namedChildren[0] ?? node) : node));
  return { caught, bare: true, block: handler.namedChildren.find((child) => child.type === 'block') };
}

/** What `with suppress(...)` (contextlib's) catches: its arguments; no block of its own handles anything. */
function suppressed(target: Node): { caught: Node[]; bare: boolean; block: undefined } | undefined {
  const name = dotted(target);
  if (name !== 'suppress' && name !== 'contextlib.suppress') return undefined;
  const call = target.parent!;
  return { caught: (call.childForFieldName('arguments')?.namedChildren ?? []).filter((arg) => arg.type !== 'comment'), bare: false, block: undefined };
}

/** The `except` clauses of functions' `try` statements and their `with suppress(...)` blocks, from handler.scm's matches. */
function handlerFacts(matches: readonly Match[], qualifiedOf: ReadonlyMap<Node, string>): HandlerFact[] {
  const out: HandlerFact[] = [];
  for (const { nodes } of matches) {
    const handler = nodes.handler!;
    const owner = ownerFunction(handler);
    const qualified = owner ? qualifiedOf.get(owner) : undefined;
    if (!qualified) continue;
    const caughtBy = nodes.suppress ? suppressed(nodes.suppress) : excepted(handler);
    if (!caughtBy) continue;
    const names = caughtBy.caught.flatMap((node) => (node.type === 'tuple' || node.type === 'parenthesized_expression' ? node.namedChildren : [node])).map((node) => dotted(node) ?? node.text);
    const broad = (caughtBy.bare && caughtBy.caught.length === 0) || names.some((name) => BROAD_EXCEPTIONS.has(name));
    let swallows = true;
    for (const node of caughtBy.block ? descendants(caughtBy.block) : []) {
      if (node.type === 'raise_statement') swallows = false;
      if (node.type === 'call') {
        const callee = dotted(node.childForFieldName('function')!) ?? '';
        if (RESULT_HELPERS.has(callee.split('.').pop()!) || callee.endsWith('.results.add')) swallows = false;
      }
    }
    const calls = new Set<string>();
    for (const node of descendants(nodes.guarded!)) {
      if (node.type !== 'call') continue;
      const callee = localCallee(node.childForFieldName('function')!);
      if (callee) calls.add(callee);
    }
    out.push({ qualified, line: lineOf(handler), broad, swallows, calls: [...calls].sort() });
  }
  return out.sort((a, b) => a.line - b.line);
}

/** A class body's annotated fields in order (`api_version: str`, `spec: dict = field(...)`). */
function classFields(body: Node | null): string[] {
  const out: string[] = [];
  for (const statement of body?.namedChildren ?? []) {
    const assignment = statement.type === 'expression_statement' ? statement.namedChildren[0] : undefined;
    const left = assignment?.type === 'assignment' && assignment.childForFieldName('type') ? assignment.childForFieldName('left') : undefined;
    if (left?.type === 'identifier') out.push(left.text);
  }
  return out;
}

/**
 * What one body binds and reads, for the request's data flow: its parameters' annotations, its
 * locals and `self.<x>` attributes with what each is assigned (a loop's target: what it iterates),
 * and every chain it reads, each with the call it is only handed to.
 */
function flowOf(definition: Node, body: Node, isMethod: boolean, sdk: ReadonlySet<string>, shadow: ReadonlySet<string>, assignments: readonly Match[], bindings: readonly Match[], loops: readonly Match[], names: readonly Node[]): FlowFacts {
  const parameters = (definition.childForFieldName('parameters')?.namedChildren ?? []).filter((p) => p.type !== 'comment');
  const typed = parameters.map((p) => ({ name: parameterName(p), type: compact(p.childForFieldName('type')?.text ?? '') }));
  const own = isMethod && (typed[0]?.name === 'self' || typed[0]?.name === 'cls') ? typed.slice(1) : typed;
  const types = own.filter((p) => p.name !== undefined).map((p) => p.type);
  const chains = (node: Node | undefined) => chainsOf(node ?? null, sdk, shadow);
  const binds: FlowFacts['binds'] = [];
  for (const { nodes } of assignments) binds.push({ target: nodes.name!.text, from: chains(nodes.value) });
  for (const { nodes } of bindings) {
    const target = dotted(nodes.target!);
    if (target && /^self\.\w+$/.test(target)) binds.push({ target, from: chains(nodes.value) });
  }
  for (const { nodes } of loops) {
    const left = nodes.target!;
    // Iterating a mapping gives its keys, names rather than what the request holds; `.items()` and
    // `.values()` give what it holds.
    const from = chains(nodes.iterable)
      .filter((chain) => /^\.(items|values)\(\)$/.test(chain.path[chain.path.length - 1] ?? ''))
      .map((chain) => ({ ...chain, path: [...chain.path, '[]'] }));
    for (const target of left.type === 'identifier' ? [left] : left.namedChildren.filter((child) => child.type === 'identifier')) binds.push({ target: target.text, from });
  }
  const uses = names.filter((name) => name.startIndex >= body.startIndex).flatMap((name) => useAt(name, (call) => calleeName(call.childForFieldName('function'))) ?? []);
  return { types, binds, uses };
}

export function sortedRecord<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
