import { yamlLibrary } from './yamlLibrary.js';
import { isObject } from './objects.js';
import { FLOW_MAP_MAX_ENTRIES, YAML_OPTIONS, viaDocument } from './yaml.js';

/**
 * A plain value (maps, lists, scalars) as canonical YAML, byte for byte what viaDocument writes: the
 * field order the value is built in, short scalar lists and small scalar maps on one line, no line
 * wrapping. Every run writes every skeleton and every outline this way to compare them with their
 * goldens, and building a yaml Document for each cost more than all the rules and comparisons
 * together. So the layout is written directly, and the yaml library still decides how each distinct
 * scalar is written (plain or quoted), once per text. Anything outside that layout (a multi-line
 * string, a list of lists) goes to the library whole; a test holds the two to the same bytes.
 */
export function toCanonicalText(value: object): string {
  try {
    return `${blockMap(value as Record<string, unknown>, '').join('\n')}\n`;
  } catch (error) {
    if (error !== OUTSIDE_LAYOUT) throw error;
    return viaDocument(value);
  }
}

const OUTSIDE_LAYOUT = Symbol('outside the direct layout');

type Scalar = string | number | boolean | null;

function isScalarValue(value: unknown): value is Scalar {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

/** Entries the yaml library keeps: it leaves out keys whose value is undefined. */
function entries(map: Record<string, unknown>): Array<[string, unknown]> {
  return Object.entries(map).filter(([, value]) => value !== undefined);
}

function isFlow(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(isScalarValue);
  if (isObject(value)) {
    const pairs = entries(value);
    return pairs.length <= FLOW_MAP_MAX_ENTRIES && pairs.every(([, v]) => isScalarValue(v));
  }
  return false;
}

type Context = 'block' | 'flow-map' | 'flow-seq' | 'block-key' | 'flow-key';

/**
 * How the yaml library writes one scalar in one context, asked once per distinct scalar; kept
 * between processes by config/scalarCache.ts, so a fresh run loads and asks the library only about
 * scalars no earlier run met.
 */
const written = new Map<string, string>();
let asked = 0;

/** Every decision taken or remembered in this process, by `context NUL text`, and how many the library took. */
export function scalarDecisions(): { decisions: ReadonlyMap<string, string>; asked: number } {
  return { decisions: written, asked };
}

/**
 * Decisions an earlier process took with the same library and options, `id` as scalarDecisions names
 * them, taken into this process's memo; a decision this process took itself stays. Nothing of where
 * they came from is kept.
 */
export function rememberScalars(kept: Iterable<readonly [string, string]>): void {
  for (const [id, text] of kept) if (!written.has(id)) written.set(id, text);
}

function scalar(value: unknown, context: Context): string {
  if (!isScalarValue(value)) throw OUTSIDE_LAYOUT;
  if (value === null) return 'null';
  if (typeof value !== 'string') return String(value);
  const id = `${context}\u0000${value}`;
  let text = written.get(id);
  if (text === undefined) {
    text = askLibrary(value, context);
    written.set(id, text);
    asked++;
  }
  return text;
}

function askLibrary(value: string, context: Context): string {
  const probe = (content: unknown, flow: boolean) => {
    const document = new (yamlLibrary().Document)(content);
    if (flow) (document.contents as { flow: boolean }).flow = true;
    return document.toString(YAML_OPTIONS).slice(0, -1);
  };
  let text: string;
  switch (context) {
    case 'block':
      text = probe({ k: value }, false).slice('k: '.length);
      break;
    case 'block-key':
      text = probe({ [value]: 0 }, false).slice(0, -': 0'.length);
      break;
    case 'flow-map':
      text = probe({ k: value }, true).slice('{k: '.length, -1);
      break;
    case 'flow-key':
      text = probe({ [value]: 0 }, true).slice(1, -': 0}'.length);
      break;
    case 'flow-seq':
      text = probe([value], true).slice(1, -1);
      break;
  }
  // A string the library writes over several lines is indented by where it sits: not a one-liner.
  if (text.includes('\n')) throw OUTSIDE_LAYOUT;
  return text;
}

function flow(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => scalar(item, 'flow-seq')).join(', ')}]`;
  return `{${entries(value as Record<string, unknown>)
    .map(([key, v]) => `${scalar(key, 'flow-key')}: ${scalar(v, 'flow-map')}`)
    .join(', ')}}`;
}

function blockMap(map: Record<string, unknown>, indent: string): string[] {
  const lines: string[] = [];
  for (const [key, value] of entries(map)) {
    const head = `${indent}${scalar(key, 'block-key')}:`;
    if (isScalarValue(value)) lines.push(`${head} ${scalar(value, 'block')}`);
    else if (isFlow(value)) lines.push(`${head} ${flow(value)}`);
    else if (Array.isArray(value)) lines.push(head, ...blockSeq(value, `${indent}  `));
    else if (isObject(value)) lines.push(head, ...blockMap(value, `${indent}  `));
    else throw OUTSIDE_LAYOUT;
  }
  return lines;
}

function blockSeq(items: unknown[], indent: string): string[] {
  const lines: string[] = [];
  for (const item of items) {
    if (isScalarValue(item)) lines.push(`${indent}- ${scalar(item, 'block')}`);
    else if (isFlow(item)) lines.push(`${indent}- ${flow(item)}`);
    else if (isObject(item)) {
      const [first, ...rest] = blockMap(item, `${indent}  `);
      lines.push(`${indent}- ${first!.slice(indent.length + 2)}`, ...rest);
    } else throw OUTSIDE_LAYOUT;
  }
  return lines;
}
