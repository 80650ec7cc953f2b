import type { SyntaxNode as Node } from './syntax.js';

/**
 * The request's data flow inside one body, as chains: where a value comes from (a name, `self`, the
 * SDK's response or required resources, a call) and the steps taken from it (`.observed`,
 * `["spec"]`, `.get("credentials")`). Which names are the request is decided across the provider
 * (requestFlow.ts), so a body that reads `self.req.observed.resources`, `request.observed` or a
 * parameter handed the observed resources reads the same thing, whatever the names.
 */

/** A value's origin and the steps from it: `{root: 'self', path: ['.req', '.observed', '.resources']}`. */
export interface Chain {
  /** A local or parameter name, `self`, `@response` (`response.to(req)`), `@credentials` (the SDK's required resources), `@call:<name>` (a plain call). */
  root: string;
  path: string[];
  /** For `@call:`: what its arguments derive from (a builtin such as `dict(x)` hands them on). */
  args?: Chain[];
}

/** A chain a body reads; `passedTo` when the body only hands it to a call of that name (the callee reads it). */
export interface ChainUse {
  chain: Chain;
  passedTo?: string;
}

/** What one body binds and reads, for the provider-level data flow. */
export interface FlowFacts {
  /** Each parameter's annotation (`fnv1.RunFunctionRequest`), `''` when unannotated, in `params` order. */
  types: string[];
  /** Locals and `self.<x>` attributes bound in the body, each with what its value derives from. */
  binds: Array<{ target: string; from: Chain[] }>;
  uses: ChainUse[];
}

/** The SDK's functions that hand back part of the request: the response (`response.to`) and the required resources. */
const SDK_SOURCES: Record<string, (member: string) => string | undefined> = {
  response: (member) => (member === 'to' ? '@response' : undefined),
  request: (member) => (/^get_(required|extra)_resources?$|credentials/.test(member) ? '@credentials' : undefined),
};

function stringOf(node: Node | undefined): string | undefined {
  if (node?.type !== 'string' || node.namedChildren.some((child) => child.type === 'interpolation')) return undefined;
  return node.namedChildren
    .filter((child) => child.type === 'string_content')
    .map((child) => child.text)
    .join('');
}

const step = (chain: Chain, next: string): Chain => ({ ...chain, path: [...chain.path, next] });
const positional = (call: Node) => (call.childForFieldName('arguments')?.namedChildren ?? []).filter((arg) => arg.type !== 'comment' && arg.type !== 'keyword_argument');
const argumentValues = (call: Node) =>
  (call.childForFieldName('arguments')?.namedChildren ?? []).filter((arg) => arg.type !== 'comment').map((arg) => (arg.type === 'keyword_argument' ? arg.childForFieldName('value') : arg)).filter((arg): arg is Node => arg !== null);

/**
 * What an expression's value derives from. `sdk` holds the SDK module aliases the file imports,
 * `shadow` the names that hide them in this body (a parameter called `request`).
 */
export function chainsOf(node: Node | null, sdk: ReadonlySet<string>, shadow: ReadonlySet<string>): Chain[] {
  if (!node) return [];
  const of = (child: Node | null) => chainsOf(child, sdk, shadow);
  switch (node.type) {
    case 'identifier':
      return [{ root: node.text, path: [] }];
    case 'attribute':
      return of(node.childForFieldName('object')).map((chain) => step(chain, `.${node.childForFieldName('attribute')?.text ?? ''}`));
    case 'subscript': {
      const key = stringOf(node.childForFieldName('subscript') ?? undefined);
      return of(node.childForFieldName('value')).map((chain) => step(chain, `[${key ?? ''}]`));
    }
    case 'call': {
      const fn = node.childForFieldName('function');
      if (fn?.type === 'identifier') return [{ root: `@call:${fn.text}`, path: [], args: argumentValues(node).flatMap(of) }];
      if (fn?.type !== 'attribute') return [];
      const object = fn.childForFieldName('object');
      const member = fn.childForFieldName('attribute')?.text ?? '';
      if (object?.type === 'identifier' && sdk.has(object.text) && !shadow.has(object.text)) {
        const source = SDK_SOURCES[object.text]?.(member);
        // Any other SDK function hands its arguments on (`resource.struct_to_dict(req.observed.composite.resource)`).
        return source ? [{ root: source, path: [] }] : argumentValues(node).flatMap(of);
      }
      const key = member === 'get' ? stringOf(positional(node)[0]) : undefined;
      return of(object).map((chain) => step(chain, member === 'get' ? `[${key ?? ''}]` : `.${member}()`));
    }
    case 'parenthesized_expression':
    case 'boolean_operator':
    case 'conditional_expression':
    case 'await':
      return node.namedChildren.flatMap(of);
    case 'dictionary':
      return node.namedChildren.filter((child) => child.type === 'dictionary_splat').flatMap((splat) => of(splat.namedChildren[0] ?? null));
    default:
      return [];
  }
}

/** Types of left-hand sides a read never stands in. */
const TARGETS = new Set(['pattern_list', 'tuple_pattern', 'list_pattern']);

/**
 * The chain a name in a body heads, when it is a read: climbs the attributes, subscripts, `.get(...)`
 * and method calls taken from it. Undefined for a name that is not read here (an attribute's name, a
 * keyword, an assignment's target, a called function's name).
 */
export function useAt(identifier: Node, callee: (call: Node) => string | undefined): ChainUse | undefined {
  const parent = identifier.parent;
  if (!parent) return undefined;
  if (parent.type === 'attribute' && !parent.childForFieldName('object')?.equals(identifier)) return undefined;
  if (parent.type === 'keyword_argument' && parent.childForFieldName('name')?.equals(identifier)) return undefined;
  if (parent.type === 'call' && parent.childForFieldName('function')?.equals(identifier)) return undefined;
  if (TARGETS.has(parent.type)) return undefined;
  let node = identifier;
  const path: string[] = [];
  for (;;) {
    const up = node.parent;
    if (up?.type === 'attribute' && up.childForFieldName('object')?.equals(node)) {
      const name = up.childForFieldName('attribute')?.text ?? '';
      const call = up.parent?.type === 'call' && up.parent.childForFieldName('function')?.equals(up) ? up.parent : undefined;
      if (call) {
        // `x.get("k")` is a subscript; any other method call on what was read is a step taken from it.
        path.push(name === 'get' ? `[${stringOf(positional(call)[0]) ?? ''}]` : `.${name}()`);
        node = call;
      } else {
        path.push(`.${name}`);
        node = up;
      }
      continue;
    }
    if (up?.type === 'subscript' && up.childForFieldName('value')?.equals(node)) {
      path.push(`[${stringOf(up.childForFieldName('subscript') ?? undefined) ?? ''}]`);
      node = up;
      continue;
    }
    break;
  }
  const up = node.parent;
  // An assignment's or a loop's target is bound, not read; writing into what was read
  // (`rsp.desired.resources[k].ready = ...`, `desired[k] = ...`) reads all but the last step.
  if ((up?.type === 'assignment' || up?.type === 'augmented_assignment' || up?.type === 'for_statement' || up?.type === 'for_in_clause') && up.childForFieldName('left')?.equals(node)) {
    return path.length === 0 || up.type === 'for_statement' || up.type === 'for_in_clause' ? undefined : { chain: { root: identifier.text, path: path.slice(0, -1) } };
  }
  const argument = up?.type === 'keyword_argument' ? up.parent : up;
  const call = argument?.type === 'argument_list' ? argument.parent : undefined;
  const passedTo = call?.type === 'call' ? callee(call) : undefined;
  return { chain: { root: identifier.text, path }, ...(passedTo ? { passedTo } : {}) };
}
