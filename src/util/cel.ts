import { Environment } from '@marcbachmann/cel-js';
import { CEL_BUDGET_MS, MAX_CEL_RANGE, MAX_CEL_RANGE_TOTAL, MAX_CEL_RESULT_CHARS, MAX_CEL_RESULT_VALUES } from './limits.js';
import { isObject } from './objects.js';
import { MemoMap } from './memoMap.js';

/** An evaluation past one of drift's bounds (docs/limits.md): an error like any other CEL error. */
export class CelLimitError extends Error {
  override name = 'CelLimitError';
}

/**
 * What the running evaluation has spent. CEL has no loops, so only drift's own range() and the
 * macros over the lists it makes can multiply work: range() counts what it creates and checks the
 * clock, so nested macros over counted lists stop within the budget instead of running for minutes.
 */
let spent = { elements: 0, deadline: Number.POSITIVE_INFINITY };

function range(count: bigint): bigint[] {
  if (count > BigInt(MAX_CEL_RANGE)) throw new CelLimitError(`range(${count}) counts past ${MAX_CEL_RANGE}, drift's limit for one range() (docs/limits.md)`);
  const length = Math.max(0, Number(count));
  spent.elements += length;
  if (spent.elements > MAX_CEL_RANGE_TOTAL) throw new CelLimitError(`range() calls of one expression create more than ${MAX_CEL_RANGE_TOTAL} elements together, drift's limit (docs/limits.md); count less, or nest fewer macros`);
  if (Date.now() > spent.deadline) throw new CelLimitError(`the expression ran past drift's budget of ${CEL_BUDGET_MS} ms for one evaluation (docs/limits.md)`);
  return Array.from({ length }, (_, i) => BigInt(i));
}

/**
 * The one CEL environment drift evaluates with: adapters' intent templates and XRDs'
 * `x-kubernetes-validations` rules. Variables are dynamic (the scope is YAML data, not typed
 * messages), literals may mix types (a node pool is a map of strings and ints), and optional
 * chaining (`p.?zones.orValue(1)`) is on, so a template can default a field the scenario leaves out.
 */
const environment = new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false, enableOptionalTypes: true })
  // CEL has no way to count up to n, which a template needs to build zone names from a count.
  .registerFunction('range(int): list<int>', range);

type Compiled = ReturnType<Environment['parse']>;
const compiled = new MemoMap<string, Compiled>();

/** Parses once per distinct expression: templates are evaluated for every provider × scenario. */
function compile(expression: string): Compiled {
  let program = compiled.get(expression);
  if (!program) {
    program = environment.parse(expression);
    compiled.set(expression, program);
  }
  return program;
}

/**
 * Evaluates `expression` over `scope` (values already in CEL form, see toCel). Throws on any CEL
 * error, and on a result past drift's bounds (values, characters) or an evaluation past its budget.
 */
export function evaluateCel(expression: string, scope: Record<string, unknown>): unknown {
  const program = compile(expression);
  spent = { elements: 0, deadline: Date.now() + CEL_BUDGET_MS };
  let result: unknown;
  try {
    result = program(scope);
  } finally {
    spent = { elements: 0, deadline: Number.POSITIVE_INFINITY };
  }
  checkSize(result);
  return result;
}

/** Counts the result's values and characters without recursion: a result is data of any depth. */
function checkSize(result: unknown): void {
  let values = 0;
  let chars = 0;
  const pending: unknown[] = [result];
  while (pending.length > 0) {
    const value = pending.pop();
    values += 1;
    if (typeof value === 'string') chars += value.length;
    else if (Array.isArray(value)) pending.push(...value);
    else if (value instanceof Map) for (const [key, item] of value) pending.push(key, item);
    else if (isObject(value)) pending.push(...Object.keys(value), ...Object.values(value));
    if (values > MAX_CEL_RESULT_VALUES) throw new CelLimitError(`the result holds more than ${MAX_CEL_RESULT_VALUES} values, drift's limit for one expression (docs/limits.md)`);
    if (chars > MAX_CEL_RESULT_CHARS) throw new CelLimitError(`the result holds more than ${MAX_CEL_RESULT_CHARS} characters, drift's limit for one expression (docs/limits.md)`);
  }
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
