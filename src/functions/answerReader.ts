import { compareText, type JsonObject } from '../util/objects.js';
import { ProtoSeverity as Severity, Ready } from '../world/protocol.js';

type JsonValue = JsonObject[string];
import type { Answer } from '../world/protocol.js';
import type { DesiredResource, EventRecord, ReadyMark, Selector } from '../world/trace.js';

/**
 * A RunFunctionResponse's wire bytes read straight into drift's Answer, with no generated message
 * objects and no google.protobuf.Struct wrappers in between: object keys come out sorted, as
 * world/protocol.ts's toAnswer sorts them. It is drift's only decoder (the function SDK's generated
 * one is a dev dependency, the tests' reference: test/unit/answer-reader.test.ts holds the two to
 * the same answer on every bundled answer and on hand-made edge cases). It reads what the generated
 * decoder reads and skips what drift ignores (meta, context, conditions, output, connection details,
 * extra resources and schemas required) after checking their framing; bytes no protobuf decoder
 * accepts (a truncated length or varint, a reserved wire type, field number 0, a stray end of group)
 * throw Malformed, which the client reports as an answer that is not a RunFunctionResponse.
 */
export class Malformed extends Error {}

const READY: Record<number, ReadyMark> = { [Ready.READY_TRUE]: 'True', [Ready.READY_FALSE]: 'False', [Ready.READY_UNSPECIFIED]: 'Unspecified' };
// Crossplane logs an unknown severity as a warning ("assuming warning"), so drift does too (as protocol.ts).
const SEVERITY: Record<number, EventRecord['severity']> = {
  [Severity.SEVERITY_NORMAL]: 'Normal',
  [Severity.SEVERITY_WARNING]: 'Warning',
  [Severity.SEVERITY_FATAL]: 'Fatal',
  [Severity.SEVERITY_UNSPECIFIED]: 'Warning',
};

/** A key a plain object cannot hold as its own: the generated decoder's assignment drops it, so does this reader. */
const PROTO = '__proto__';

class Reader {
  pos = 0;
  private readonly view: DataView;
  /** The same bytes as a Buffer: keys of bodies and of judged fields are Latin-1 strings of them. */
  readonly bytes: Buffer;

  constructor(
    readonly buf: Uint8Array,
    /** Resource bodies read before, by their bytes (see readAnswer). */
    readonly bodies?: Map<string, JsonObject>,
  ) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    this.bytes = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  /** A resource body, the Struct up to `end`: the one read before from the same bytes, if any. */
  body(end: number): JsonObject {
    if (!this.bodies) return struct(this, end, 0);
    const key = this.bytes.toString('latin1', this.pos, end);
    let body = this.bodies.get(key);
    if (body) {
      this.pos = end;
      return body;
    }
    body = struct(this, end, 0);
    this.bodies.set(key, body);
    return body;
  }

  /**
   * A varint's low 32 bits, unsigned; at most 10 bytes, as protobuf allows. Tags and most lengths
   * are one byte: that case returns before the loop (drift runs without TurboFan, so every bytecode
   * of this hottest function counts).
   */
  varint(): number {
    const buf = this.buf;
    const first = buf[this.pos];
    if (first !== undefined && first < 0x80) {
      this.pos += 1;
      return first;
    }
    let result = 0;
    let shift = 0;
    for (let i = 0; i < 10; i += 1) {
      if (this.pos >= buf.length) throw new Malformed('truncated varint');
      const byte = buf[this.pos++]!;
      if (shift < 32) result |= (byte & 0x7f) << shift;
      shift += 7;
      if (byte < 0x80) return result >>> 0;
    }
    throw new Malformed('varint too long');
  }

  /** A varint that is not zero (a bool), any of its 64 bits. */
  bool(): boolean {
    const buf = this.buf;
    let any = false;
    for (let i = 0; i < 10; i += 1) {
      if (this.pos >= buf.length) throw new Malformed('truncated varint');
      const byte = buf[this.pos++]!;
      if (byte & 0x7f) any = true;
      if (byte < 0x80) return any;
    }
    throw new Malformed('varint too long');
  }

  /** The end of a length-delimited field whose length comes next. */
  end(): number {
    const length = this.varint();
    const end = this.pos + length;
    if (end > this.buf.length) throw new Malformed('length beyond the message');
    return end;
  }

  /**
   * A string field, UTF-8. Buffer's native decoder replaces malformed bytes as TextDecoder does (the
   * WHATWG rules, a BOM kept): one native call, where a loop over the bytes first cost more in
   * drift's interpreter than the decoding. Object keys come through here too: V8 interns a key when
   * it becomes a property name.
   */
  string(): string {
    const end = this.end();
    const start = this.pos;
    this.pos = end;
    return this.bytes.toString('utf8', start, end);
  }

  double(): number {
    if (this.pos + 8 > this.buf.length) throw new Malformed('truncated double');
    const value = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return value;
  }

  /** Skips a field drift does not read, as the generated decoder does: a group to its end tag; a reserved wire type is malformed. */
  skip(wireType: number, field = 0, depth = 0): void {
    if (wireType === 0) this.varint();
    else if (wireType === 1) this.pos += 8;
    else if (wireType === 2) this.pos = this.end();
    else if (wireType === 5) this.pos += 4;
    else if (wireType === 3) {
      if (depth > 90) throw new Malformed('groups nested too deep');
      for (;;) {
        const tag = this.varint();
        if (tag === 0) throw new Malformed('tag 0');
        if ((tag & 7) === 4) {
          if (tag >>> 3 !== field) throw new Malformed('invalid end group tag');
          break;
        }
        this.skip(tag & 7, tag >>> 3, depth + 1);
      }
    } else throw new Malformed(`cant skip wire type ${wireType}`);
    if (this.pos > this.buf.length) throw new Malformed('field beyond the message');
  }

  /** The next tag; field number 0 and an end of group with no group open are malformed (Go's protobuf, Crossplane's decoder, rejects both). */
  tag(): number {
    const tag = this.varint();
    if (tag < 8 || (tag & 7) === 4) throw new Malformed(`tag ${tag}`);
    return tag;
  }

  /** Skips the field whose tag was just read. */
  skipField(tag: number): void {
    this.skip(tag & 7, tag >>> 3);
  }

  /** The enclosing message must end exactly where its length said. */
  done(end: number): void {
    if (this.pos !== end) throw new Malformed('a field ran past its message');
  }
}

/** google.protobuf.Struct as a plain object, keys sorted (compareText), every nested object too. */
function struct(r: Reader, end: number, depth: number): JsonObject {
  if (depth > 90) throw new Malformed('nested too deep');
  const keys: string[] = [];
  const values: JsonValue[] = [];
  let sorted = true;
  while (r.pos < end) {
    const tag = r.tag();
    if (tag !== 10) {
      r.skipField(tag);
      continue;
    }
    const entryEnd = r.end();
    let key = '';
    let value: JsonValue | undefined;
    while (r.pos < entryEnd) {
      const entryTag = r.tag();
      if (entryTag === 10) key = r.string();
      else if (entryTag === 18) value = valueOf(r, r.end(), depth + 1);
      else r.skipField(entryTag);
    }
    r.done(entryEnd);
    if (value === undefined || key === PROTO) continue;
    if (sorted && keys.length > 0 && keys[keys.length - 1]! >= key) sorted = false;
    keys.push(key);
    values.push(value);
  }
  r.done(end);
  const object: JsonObject = {};
  if (sorted) {
    for (let i = 0; i < keys.length; i += 1) object[keys[i]!] = values[i]!;
    return object;
  }
  // A key met twice keeps its last value (the generated decoder assigns in wire order), in sorted place.
  const order = keys.map((_, i) => i).sort((a, b) => compareText(keys[a]!, keys[b]!) || a - b);
  for (let n = 0; n < order.length; n += 1) object[keys[order[n]!]!] = values[order[n]!]!;
  return object;
}

function list(r: Reader, end: number, depth: number): Array<JsonValue | undefined> {
  const items: Array<JsonValue | undefined> = [];
  while (r.pos < end) {
    const tag = r.tag();
    if (tag === 10) items.push(valueOf(r, r.end(), depth + 1));
    else r.skipField(tag);
  }
  r.done(end);
  return items;
}

/**
 * google.protobuf.Value; undefined when it carries no kind (the generated decoder's unwrap gives that
 * too). Its kinds are a oneof: of two on the wire the last counts, as Go's protobuf (Crossplane's)
 * reads it; no encoder writes two.
 */
function valueOf(r: Reader, end: number, depth: number): JsonValue | undefined {
  if (depth > 90) throw new Malformed('nested too deep');
  let value: JsonValue | undefined;
  while (r.pos < end) {
    const tag = r.tag();
    switch (tag) {
      case 8:
        r.varint();
        value = null;
        break;
      case 17:
        value = r.double();
        break;
      case 26:
        value = r.string();
        break;
      case 32:
        value = r.bool();
        break;
      case 42:
        value = struct(r, r.end(), depth + 1);
        break;
      case 50:
        value = list(r, r.end(), depth + 1) as JsonValue;
        break;
      default:
        r.skipField(tag);
    }
  }
  r.done(end);
  return value;
}

interface ResourceRead {
  resource: JsonObject | undefined;
  ready: number;
}

function resource(r: Reader, end: number): ResourceRead {
  let body: JsonObject | undefined;
  let ready = 0;
  while (r.pos < end) {
    const tag = r.tag();
    if (tag === 10) body = r.body(r.end());
    else if (tag === 24) ready = r.varint() | 0;
    else r.skipField(tag);
  }
  r.done(end);
  return { resource: body, ready };
}

/** One entry of a protobuf `map<string, V>` (field 1 its key, field 2 its value), read to its end. */
function mapEntry<V>(r: Reader, readValue: (r: Reader) => V): { key: string; value: V | undefined } {
  const entryEnd = r.end();
  let key = '';
  let value: V | undefined;
  while (r.pos < entryEnd) {
    const entryTag = r.tag();
    if (entryTag === 10) key = r.string();
    else if (entryTag === 18) value = readValue(r);
    else r.skipField(entryTag);
  }
  r.done(entryEnd);
  return { key, value };
}

function state(r: Reader, end: number): { composite: ResourceRead | undefined; resources: Map<string, ResourceRead> } {
  let composite: ResourceRead | undefined;
  const resources = new Map<string, ResourceRead>();
  while (r.pos < end) {
    const tag = r.tag();
    if (tag === 10) composite = resource(r, r.end());
    else if (tag === 18) {
      const { key, value } = mapEntry(r, (entry) => resource(entry, entry.end()));
      if (value !== undefined && key !== PROTO) resources.set(key, value);
    } else r.skipField(tag);
  }
  r.done(end);
  return { composite, resources };
}

function labels(r: Reader, end: number): Record<string, string> {
  const read = new Map<string, string>();
  while (r.pos < end) {
    const tag = r.tag();
    if (tag !== 10) {
      r.skipField(tag);
      continue;
    }
    const { key, value } = mapEntry(r, (entry) => entry.string());
    if (key !== PROTO) read.set(key, value ?? '');
  }
  r.done(end);
  const sorted: Record<string, string> = {};
  for (const key of [...read.keys()].sort(compareText)) sorted[key] = read.get(key)!;
  return sorted;
}

function selector(r: Reader, end: number): Selector {
  let apiVersion = '';
  let kind = '';
  let matchName: string | undefined;
  let matchLabels: Record<string, string> | undefined;
  let namespace: string | undefined;
  while (r.pos < end) {
    const tag = r.tag();
    if (tag === 10) apiVersion = r.string();
    else if (tag === 18) kind = r.string();
    else if (tag === 26) matchName = r.string();
    else if (tag === 34) matchLabels = labels(r, r.end());
    else if (tag === 42) namespace = r.string();
    else r.skipField(tag);
  }
  r.done(end);
  return {
    apiVersion,
    kind,
    ...(matchName !== undefined ? { matchName } : {}),
    ...(matchLabels ? { matchLabels } : {}),
    ...(namespace ? { namespace } : {}),
  };
}

function requirements(r: Reader, end: number): Map<string, Selector> {
  const selectors = new Map<string, Selector>();
  while (r.pos < end) {
    const tag = r.tag();
    if (tag === 18) {
      const { key, value } = mapEntry(r, (entry) => selector(entry, entry.end()));
      if (value !== undefined && key !== PROTO) selectors.set(key, value);
    } else r.skipField(tag); // extra resources (deprecated) and schemas required: drift's world answers neither
  }
  r.done(end);
  return selectors;
}

function result(r: Reader, end: number): EventRecord {
  let severity = 0;
  let message = '';
  let reason: string | undefined;
  while (r.pos < end) {
    const tag = r.tag();
    if (tag === 8) severity = r.varint() | 0;
    else if (tag === 18) message = r.string();
    else if (tag === 26) reason = r.string();
    else if (tag === 32) r.varint();
    else r.skipField(tag);
  }
  r.done(end);
  return { severity: SEVERITY[severity] ?? 'Warning', message, ...(reason ? { reason } : {}) };
}

function sortedObject<T>(map: Map<string, T>): Record<string, T> {
  const object: Record<string, T> = {};
  for (const key of [...map.keys()].sort(compareText)) object[key] = map.get(key)!;
  return object;
}

/**
 * A message drift does not read, walked to its end so that its framing is checked as the generated
 * decoder checks it: `nested` names the fields that are messages themselves, read the same way.
 */
function walk(r: Reader, end: number, nested: Record<number, (r: Reader, end: number) => unknown> = {}): void {
  while (r.pos < end) {
    const tag = r.tag();
    const inner = (tag & 7) === 2 ? nested[tag >>> 3] : undefined;
    if (inner) inner(r, r.end());
    else r.skipField(tag);
  }
  r.done(end);
}

const duration = (r: Reader, end: number) => walk(r, end);
const ignoredStruct = (r: Reader, end: number) => struct(r, end, 0);

/**
 * The answer in a RunFunctionResponse's bytes; throws Malformed for bytes that are not one. `bodies` holds the resource bodies read before for the same function: most of an answer's
 * resources come back byte for byte from one answer to the next, and one read is shared (answers are
 * never mutated), which also lets the request writer reuse the bytes it wrote for that object.
 */
export function readAnswer(bytes: Uint8Array, bodies?: Map<string, JsonObject>): Answer {
  const r = new Reader(bytes, bodies);
  let desired: ReturnType<typeof state> | undefined;
  let selectors = new Map<string, Selector>();
  const results: EventRecord[] = [];
  const end = bytes.length;
  while (r.pos < end) {
    const tag = r.tag();
    if (tag === 18) desired = state(r, r.end());
    else if (tag === 26) results.push(result(r, r.end()));
    else if (tag === 42) selectors = requirements(r, r.end());
    // meta (its ttl a Duration), context, conditions and output: checked, not kept.
    else if (tag === 10) walk(r, r.end(), { 2: duration });
    else if (tag === 34 || tag === 58) ignoredStruct(r, r.end());
    else if (tag === 50) walk(r, r.end());
    else r.skipField(tag);
  }
  const resources: Record<string, DesiredResource> = {};
  for (const [key, read] of [...(desired?.resources ?? new Map<string, ResourceRead>())].sort(([a], [b]) => compareText(a, b))) {
    resources[key] = { resource: read.resource ?? {}, ready: READY[read.ready] ?? 'Unspecified' };
  }
  const composite = desired?.composite;
  const status = composite?.resource?.status;
  return {
    requirements: sortedObject(selectors),
    status: typeof status === 'object' && status !== null && !Array.isArray(status) ? (status as JsonObject) : {},
    compositeReady: composite ? READY[composite.ready] ?? 'Unspecified' : 'Unspecified',
    resources,
    results,
  };
}
