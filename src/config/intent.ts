import { createHash } from 'node:crypto';
import type { Adapter, K8sObject, Scenario } from './types.js';
import type { XrdUnchecked, XrdViolation } from './xrd.js';
import { checkXr } from './xrdCheck.js';
import { isObject, type JsonObject } from '../util/objects.js';
import { celProblem, evaluateCel, fromCel, toCel } from '../util/cel.js';
import { packageFile } from './paths.js';
import { readLocatedYamlFile, type Position } from './yamlFile.js';

/** Where a value sits: object keys and list indexes, as in ['spec', 'nodePools', 0]. */
export type DataPath = Array<string | number>;

/** One scenario intent field, e.g. pools[0].zones, with where the scenario file sets it. */
export interface IntentField {
  name: string;
  scenarioPath: DataPath;
}

/** A template expression that did not evaluate. */
export interface TemplateError {
  templatePath: DataPath;
  problem: string;
}

export interface FilledTemplate {
  spec: JsonObject;
  /** Intent fields the scenario sets that the template never read: they would reach no XR field. */
  unplaced: IntentField[];
  errors: TemplateError[];
}

type Segment = { text: string } | { expression: string };

/**
 * Splits a template string into literal text and `${...}` CEL expressions. Braces inside an
 * expression (map literals) and inside its string literals do not end it.
 */
export function segments(template: string): Segment[] {
  const out: Segment[] = [];
  let literal = '';
  let i = 0;
  while (i < template.length) {
    if (template.startsWith('${', i)) {
      const end = closingBrace(template, i + 2);
      if (end < 0) throw new Error(`"\${" at offset ${i} has no closing "}"`);
      if (literal) out.push({ text: literal });
      literal = '';
      out.push({ expression: template.slice(i + 2, end) });
      i = end + 1;
    } else {
      literal += template[i];
      i += 1;
    }
  }
  if (literal) out.push({ text: literal });
  return out;
}

function closingBrace(text: string, from: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = from; i < text.length; i += 1) {
    const char = text[i]!;
    if (quote) {
      if (char === '\\') i += 1;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '{') depth += 1;
    else if (char === '}') {
      if (depth === 0) return i;
      depth -= 1;
    }
  }
  return -1;
}

/**
 * Scope values that record every field a template reads, so an intent field nothing reads is
 * found. Reading a field is what placing it takes: a value is placed by copying it somewhere or
 * by deriving something from it (`range(p.zones)`).
 */
function tracked(value: unknown, name: string, reads: Set<string>): unknown {
  if (Array.isArray(value)) {
    return new Proxy(value, {
      get(target, key, receiver) {
        const item: unknown = Reflect.get(target, key, receiver);
        return typeof key === 'string' && /^\d+$/.test(key) ? tracked(item, `${name}[${key}]`, reads) : item;
      },
    });
  }
  if (isObject(value)) {
    return new Proxy(value, {
      get(target, key, receiver) {
        const item: unknown = Reflect.get(target, key, receiver);
        if (typeof key !== 'string' || !Object.hasOwn(target, key)) return item;
        reads.add(`${name}.${key}`);
        return tracked(item, `${name}.${key}`, reads);
      },
    });
  }
  return value;
}

/** Every intent field a scenario sets, each of which some XR field must carry. */
export function intentFields(scenario: Scenario): IntentField[] {
  const fields: IntentField[] = [];
  scenario.xr.nodePools.forEach((pool, index) => {
    for (const key of Object.keys(pool)) fields.push({ name: `pools[${index}].${key}`, scenarioPath: ['xr', 'nodePools', index, key] });
  });
  for (const key of Object.keys(scenario.xr.credentials ?? {})) fields.push({ name: `credentials.${key}`, scenarioPath: ['xr', 'credentials', key] });
  return fields;
}

/** A field that read this path or one inside it counts: `pools[0].zones` is placed by reading it whole. */
function wasRead(field: string, reads: Set<string>): boolean {
  if (reads.has(field)) return true;
  for (const read of reads) if (read.startsWith(`${field}.`) || read.startsWith(`${field}[`)) return true;
  return false;
}

/** Evaluated template output: nulls are left out, so `p.?minNodeCount.orValue(null)` places nothing when unset. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((item) => item !== null && item !== undefined).map(withoutNulls);
  if (isObject(value)) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, item]) => item !== null && item !== undefined)
        .map(([key, item]) => [key, withoutNulls(item)]),
    );
  }
  return value;
}

function fill(template: unknown, scope: Record<string, unknown>, at: DataPath, errors: TemplateError[]): unknown {
  if (typeof template === 'string') return fillString(template, scope, at, errors);
  if (Array.isArray(template)) return template.map((item, index) => fill(item, scope, [...at, index], errors));
  if (isObject(template)) return Object.fromEntries(Object.entries(template).map(([key, item]) => [key, fill(item, scope, [...at, key], errors)]));
  return template;
}

/** An expression as a message quotes it: on one line, its middle left out when long (line:column says where it is). */
function shortExpression(expression: string): string {
  const line = expression.trim().replace(/\s+/g, ' ');
  return line.length <= 80 ? `\${${line}}` : `\${${line.slice(0, 40)} … ${line.slice(-30)}}`;
}

function fillString(template: string, scope: Record<string, unknown>, at: DataPath, errors: TemplateError[]): unknown {
  let parts: Segment[];
  try {
    parts = segments(template);
  } catch (error) {
    errors.push({ templatePath: at, problem: (error as Error).message });
    return null;
  }
  const values: unknown[] = [];
  for (const part of parts) {
    if ('text' in part) {
      values.push(part.text);
      continue;
    }
    try {
      // Reading the result through the scope's proxies marks whatever it copies as placed.
      values.push(fromCel(evaluateCel(part.expression, scope)));
    } catch (error) {
      errors.push({ templatePath: at, problem: `${shortExpression(part.expression)}: ${celProblem(error)}` });
      return null;
    }
  }
  // A string that is one expression keeps the value's type; text around expressions makes a string.
  if (parts.length === 1 && 'expression' in parts[0]!) return values[0];
  if (values.some((value) => value === null || value === undefined)) return null;
  for (const [index, value] of values.entries()) {
    if (isObject(value) || Array.isArray(value)) {
      errors.push({ templatePath: at, problem: `\${${(parts[index] as { expression: string }).expression.trim()}} is a ${Array.isArray(value) ? 'list' : 'map'} inside text; make the expression the whole string` });
      return null;
    }
  }
  return values.map(String).join('');
}

/**
 * Fills the adapter's XR spec template for a scenario. The scope is the scenario's intent: `xr`
 * (name, namespace), `pools` (the node pools as the scenario writes them), `credentials` (kind and
 * name, an empty map when the scenario names none), and the adapter's `gpus` and `values`.
 */
export function fillSpec(adapter: Adapter, scenario: Scenario): FilledTemplate {
  const reads = new Set<string>();
  const scope = {
    xr: toCel({ name: scenario.xr.name, namespace: scenario.xr.namespace }),
    pools: tracked(toCel(scenario.xr.nodePools), 'pools', reads),
    credentials: tracked(toCel(scenario.xr.credentials ?? {}), 'credentials', reads),
    gpus: toCel(adapter.xr.gpus),
    values: adapter.values,
  };
  const errors: TemplateError[] = [];
  const filled = withoutNulls(fill(adapter.xr.spec, scope, ['xr', 'spec'], errors));
  const ignored = (field: IntentField) => adapter.xr.ignore[field.name.replace(/\[\d+\]/g, '[]')] !== undefined;
  const unplaced = errors.length ? [] : intentFields(scenario).filter((field) => !wasRead(field.name, reads) && !ignored(field));
  return { spec: isObject(filled) ? filled : {}, unplaced, errors };
}

/** A deterministic uid, so composed names and traces are the same on every run. */
export function xrUid(scenario: Pick<Scenario, 'xr'>): string {
  const hex = createHash('sha256').update(`${scenario.xr.namespace}/${scenario.xr.name}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The XR an adapter builds for a scenario, with everything that is wrong with it. */
export interface MappedIntent {
  xr: K8sObject;
  errors: TemplateError[];
  unplaced: IntentField[];
  violations: XrdViolation[];
  unchecked: XrdUnchecked[];
}

/**
 * Maps a scenario's intent through the adapter's XR template, then, when the adapter names an XRD,
 * validates and defaults the result as the API server would on create.
 */
export function mapIntent(adapter: Adapter, scenario: Scenario): MappedIntent {
  const filled = fillSpec(adapter, scenario);
  const xr: K8sObject = {
    apiVersion: adapter.xr.apiVersion,
    kind: adapter.xr.kind,
    metadata: { name: scenario.xr.name, namespace: scenario.xr.namespace, uid: xrUid(scenario) },
    spec: filled.spec,
  };
  const mapped = { xr, errors: filled.errors, unplaced: filled.unplaced, violations: [], unchecked: [] };
  if (!adapter.xrd || filled.errors.length) return mapped;
  const checked = checkXr(adapter.xrd, xr);
  return { ...mapped, xr: checked.xr as K8sObject, violations: checked.violations, unchecked: checked.unchecked };
}

/** What a scenario's intent was mapped for: the scenario itself, or one of drift's probes of it. */
function mappedFor(scenario: Scenario): string {
  return scenario.probe ? `${scenario.probe} of scenario ${scenario.name}` : `scenario ${scenario.name}`;
}

/**
 * Where in the adapter a template path sits, read again from its file: only an XR that fails to
 * build after loading (a probe's intent, which loading never mapped) needs it, so loading keeps no
 * positions. The file's own start when it cannot be read again.
 */
function locateInAdapter(file: string, at: DataPath): Position {
  try {
    return readLocatedYamlFile(file, packageFile('schemas/provider.schema.json'), { cache: undefined }).locate(at);
  } catch {
    return { line: 1, col: 1 };
  }
}

/**
 * What is wrong with an XR mapped at run time, as `provider.yaml:line:col: ...` naming the template
 * expression that failed and what it was mapped for, the scenario or drift's own probe of it (the
 * intent values it changed); undefined when nothing is.
 */
export function intentProblem(adapter: Pick<Adapter, 'file'>, scenario: Scenario, mapped: MappedIntent): string | undefined {
  const at = (where: DataPath) => {
    const { line, col } = locateInAdapter(adapter.file, where);
    return `${adapter.file}:${line}:${col}`;
  };
  const template = mapped.errors[0];
  if (template) return `${at(template.templatePath)}: xr template, for ${mappedFor(scenario)}: ${template.problem}`;
  const violation = mapped.violations[0];
  if (violation) return `${at(['xr', ...violation.instancePath])}: the XR for ${mappedFor(scenario)} is rejected by its XRD: ${violation.instancePath.join('.') || 'the XR'}: ${violation.problem}`;
  const unplaced = mapped.unplaced[0];
  if (unplaced) return `${at(['xr', 'spec'])}: ${mappedFor(scenario)} sets ${unplaced.name}, but xr.spec never reads it, so no XR field carries it`;
  return undefined;
}
