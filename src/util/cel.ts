import { Environment } from '@marcbachmann/cel-js';
import { isObject } from './objects.js';

/**
 * The one CEL environment drift evaluates with: adapters' intent templates and XRDs'
 * `x-kubernetes-validations` rules. Variables are dynamic (the scope is YAML data, not typed
 * messages), literals may mix types (a node pool is a map of strings and ints), and optional
 * chaining (`p.?zones.orValue(1)`) is on, so a template can default a field the scenario leaves out.
 */
const environment = new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false, enableOptionalTypes: true })
  // CEL has no way to count up to n, which a template needs to build zone names from a count.
  .registerFunction('range(int): list<int>', (count: bigint) => Array.from({ length: Math.max(0, Number(count)) }, (_, i) => BigInt(i)));

type Compiled = ReturnType<Environment['parse']>;
const compiled = new Map<string, Compiled>();

/** Parses once per distinct expression: templates are evaluated for every provider × scenario. */
function compile(expression: string): Compiled {
  let program = compiled.get(expression);
  if (!program) {
    program = environment.parse(expression);
    compiled.set(expression, program);
  }
  return program;
}

/** Evaluates `expression` over `scope` (values already in CEL form, see toCel). Throws on any CEL error. */
export function evaluateCel(expression: string, scope: Record<string, unknown>): unknown {
  return compile(expression)(scope);
}

/** The first line of a CEL error: the library appends a source excerpt that the caller locates itself. */
export function celProblem(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim();
}

/**
 * YAML data as CEL sees it: CEL's integers are 64-bit and distinct from doubles, so whole numbers
 * become BigInt unless the caller knows the field is a double (`isDouble`, e.g. an XRD `number`).
 */
export function toCel(value: unknown, isDouble = false): unknown {
  if (typeof value === 'number') return Number.isInteger(value) && !isDouble ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map((item) => toCel(item));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toCel(item)]));
  return value;
}

/** A CEL result back as JSON-like data: BigInt to number, Map to object. */
export function fromCel(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(fromCel);
  if (value instanceof Map) return Object.fromEntries([...value].map(([key, item]) => [String(key), fromCel(item)]));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fromCel(item)]));
  return value;
}
