import type { Resource, RunFunctionRequest, State } from '@crossplane-org/function-sdk-typescript';
import { MemoWeakMap } from '../util/memoMap.js';
import { speedLayers } from '../util/speedLayers.js';

/** Strings of at most this many UTF-16 units take the one-byte length path: 3 × 42 = 126 bytes at most. */
const SHORT = 42;

/**
 * `text` as UTF-8 into `buf` at `offset`, returning the bytes written: Buffer's own native writer,
 * which `buf.write` wraps in argument checks that cost more than the write when no JIT runs (it is
 * not documented, but `buf.write` itself calls it: without it, `write` fails too). The caller has
 * ensured the room.
 */
const utf8Into = (buf: Buffer, text: string, offset: number): number => (buf as Buffer & { utf8Write(text: string, offset: number): number }).utf8Write(text, offset);

/**
 * RunFunctionRequest's wire bytes written straight from drift's plain objects: the generated
 * encoder wraps every JSON value in google.protobuf.Struct/Value messages and forks a writer per
 * nested message, which is most of a request's cost. This writes the same bytes, in the same field
 * order (test/unit/request-writer.test.ts holds it to the generated encoder's output), with one
 * buffer reused from request to request; a nested message's length is reserved as one byte and
 * widened in place when the message is longer. It is drift's only encoder: the function SDK's
 * generated one is a dev dependency, the tests' reference. What drift's world never sends
 * (credentials, required schemas, a readiness that is not an int32) is refused, not written.
 */
class Writer {
  buf = Buffer.allocUnsafe(64 * 1024);
  pos = 0;
  private view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
  private bytes = new Uint8Array(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);

  ensure(more: number): void {
    if (this.pos + more <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + more) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
    this.view = new DataView(grown.buffer, grown.byteOffset, grown.byteLength);
    this.bytes = new Uint8Array(grown.buffer, grown.byteOffset, grown.byteLength);
  }

  varint(value: number): void {
    this.ensure(5);
    const buf = this.buf;
    while (value > 0x7f) {
      buf[this.pos++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    buf[this.pos++] = value;
  }

  int32(value: number): void {
    if (value >= 0) return this.varint(value);
    this.ensure(10);
    for (let i = 0; i < 9; i += 1) {
      this.buf[this.pos++] = (value & 0x7f) | 0x80;
      value >>= 7;
    }
    this.buf[this.pos++] = 1;
  }

  double(value: number): void {
    this.ensure(8);
    this.view.setFloat64(this.pos, value, true);
    this.pos += 8;
  }

  /** A length-delimited string, UTF-8 (lone surrogates as U+FFFD, as TextEncoder writes them). */
  string(text: string): void {
    if (text.length <= SHORT) {
      // At most 3 bytes a UTF-16 unit: the length fits its one byte, written after the text.
      this.ensure(1 + 3 * text.length);
      const written = utf8Into(this.buf, text, this.pos + 1);
      this.buf[this.pos] = written;
      this.pos += 1 + written;
      return;
    }
    const bytes = Buffer.byteLength(text, 'utf8');
    this.varint(bytes);
    this.ensure(bytes);
    this.pos += utf8Into(this.buf, text, this.pos);
  }

  raw(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  /** Starts a nested message after its tag: one byte kept for its length. */
  fork(): number {
    this.ensure(1);
    return this.pos++;
  }

  /** Ends the nested message begun at `at`, writing its length there (moving it right when it needs more bytes). */
  join(at: number): void {
    const length = this.pos - at - 1;
    if (length < 0x80) {
      this.buf[at] = length;
      return;
    }
    const size = length < 1 << 14 ? 2 : length < 1 << 21 ? 3 : length < 1 << 28 ? 4 : 5;
    this.ensure(size - 1);
    this.buf.copyWithin(at + size, at + 1, this.pos);
    this.pos += size - 1;
    let value = length;
    let p = at;
    while (value > 0x7f) {
      this.buf[p++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    this.buf[p] = value;
  }

  /**
   * The bytes written since `from`, copied out of the shared buffer: a plain Uint8Array, as a
   * Buffer's slice would run Buffer's own constructor (JavaScript) for every copy.
   */
  copy(from: number): Uint8Array {
    return this.bytes.slice(from, this.pos);
  }
}

const writer = new Writer();

/** A key a plain object cannot hold as its own: the generated encoder's Struct.wrap assignment drops it too. */
const PROTO = '__proto__';

/**
 * Bytes written before for an object under a key, by object. The world never changes an object once
 * it is set (it sets a new one) and keeps what did not change from step to step, and an answer's
 * bodies are never changed either, so most of a request is written once and copied after:
 * - an observed resource's whole map entry, by its body (`entryBytes`): most of a request is
 *   observed state that did not change since the last one;
 * - a body's top-level fields whose values are objects (`spec`, `metadata`, `status`), by that
 *   object (`fieldBytes`): a resource the world rebuilds (a new status, a new name) keeps the objects
 *   it did not change, and so do the XR from step to step and an observed body from the answer it
 *   was desired in.
 * Two tables: the same object may be an entry's body and another body's field, whose bytes differ.
 */
type Written = WeakMap<object, { key: string; bytes: Uint8Array }>;
const entryBytes: Written = new MemoWeakMap();
const fieldBytes: Written = new MemoWeakMap();

/** What `write` writes for `object` under `key`: written once, then copied from `table`. */
function reused(w: Writer, table: Written, key: string, object: object, write: () => void): void {
  const known = table.get(object);
  if (known && known.key === key) {
    w.raw(known.bytes);
    return;
  }
  const start = w.pos;
  write();
  table.set(object, { key, bytes: w.copy(start) });
}

/**
 * google.protobuf.Struct's fields, as Struct.encode(Struct.wrap(object)) writes them. With `reuse`
 * (a resource's body), a field whose value is an object is written once per object (fieldBytes).
 */
function struct(w: Writer, object: Record<string, unknown>, reuse = false): void {
  for (const key of Object.keys(object)) {
    const value = object[key];
    if (value === undefined || key === PROTO) continue;
    if (reuse && typeof value === 'object' && value !== null) reused(w, fieldBytes, key, value, () => field(w, key, value));
    else field(w, key, value);
  }
}

/** One Struct field: its map entry, key and Value. */
function field(w: Writer, key: string, value: unknown): void {
  if (typeof value === 'string' && key.length <= SHORT && value.length <= SHORT && shortStringField(w, key, value)) return;
  w.varint(10);
  const entry = w.fork();
  if (key !== '') {
    w.varint(10);
    w.string(key);
  }
  w.varint(18);
  const inner = w.fork();
  valueOf(w, value);
  w.join(inner);
  w.join(entry);
}

/**
 * A field whose key and string value are short, written in one go: most fields of a Kubernetes
 * object are, and writing each of the entry's six tags and lengths by a call of its own is most of
 * their cost when no JIT runs. False, with nothing written, when a length needs a second byte.
 */
function shortStringField(w: Writer, key: string, value: string): boolean {
  w.ensure(6 + 3 * (key.length + value.length));
  const { buf, pos: start } = w;
  let at = start + 2;
  if (key !== '') {
    buf[at] = 10;
    const written = utf8Into(buf, key, at + 2);
    buf[at + 1] = written;
    at += 2 + written;
  }
  buf[at] = 18;
  buf[at + 2] = 26;
  const written = utf8Into(buf, value, at + 4);
  const entry = at + 4 + written - start - 2;
  if (written + 2 >= 0x80 || entry >= 0x80) return false;
  buf[at + 1] = written + 2;
  buf[at + 3] = written;
  buf[start] = 10;
  buf[start + 1] = entry;
  w.pos = at + 4 + written;
  return true;
}

/** google.protobuf.Value's one field, as Value.encode(Value.wrap(value)) writes it. */
function valueOf(w: Writer, value: unknown): void {
  if (value === null) {
    w.varint(8);
    w.varint(0);
  } else if (typeof value === 'boolean') {
    w.varint(32);
    w.varint(value ? 1 : 0);
  } else if (typeof value === 'number') {
    w.varint(17);
    w.double(value);
  } else if (typeof value === 'string') {
    w.varint(26);
    w.string(value);
  } else if (Array.isArray(value)) {
    w.varint(50);
    const list = w.fork();
    for (const item of value) {
      w.varint(10);
      const at = w.fork();
      if (item !== undefined) valueOf(w, item);
      w.join(at);
    }
    w.join(list);
  } else if (typeof value === 'object') {
    w.varint(42);
    const at = w.fork();
    struct(w, value as Record<string, unknown>);
    w.join(at);
  } else if (typeof value !== 'undefined') {
    throw new Error(`Unsupported any value type: ${typeof value}`);
  }
}

/** A Resource message's fields, as Resource.encode writes them. */
function resource(w: Writer, message: Resource): void {
  if (!Number.isInteger(message.ready) || message.ready > 0x7fffffff || message.ready < -0x80000000) {
    throw new Error(`a resource's readiness must be an int32 of the Ready enum, not ${String(message.ready)}`);
  }
  if (message.resource !== undefined) {
    w.varint(10);
    const at = w.fork();
    struct(w, message.resource, true);
    w.join(at);
  }
  // Connection details (a map of bytes): the world sends none today, written as Resource.encode would.
  for (const [key, value] of Object.entries(message.connectionDetails)) {
    w.varint(18);
    const at = w.fork();
    if (key !== '') {
      w.varint(10);
      w.string(key);
    }
    if (value.length > 0) {
      w.varint(18);
      w.varint(value.length);
      w.raw(value);
    }
    w.join(at);
  }
  if (message.ready !== 0) {
    w.varint(24);
    w.int32(message.ready);
  }
}

/** One map entry of `resources` (State) or of a Resources' name (`tag`): key, then the value's message. */
function entry(w: Writer, tag: number, key: string, value: (() => void) | undefined): void {
  w.varint(tag);
  const at = w.fork();
  if (key !== '') {
    w.varint(10);
    w.string(key);
  }
  if (value) {
    w.varint(18);
    const inner = w.fork();
    value();
    w.join(inner);
  }
  w.join(at);
}

/** An entry's bytes depend on its name and its body only when the wrapper carries nothing else. */
function plain(value: Resource): value is Resource & { resource: object } {
  return value.resource !== undefined && value.ready === 0 && Object.keys(value.connectionDetails).length === 0;
}

/** A State's fields, as State.encode writes them; with `reuse` (observed state), a plain entry is written once per body (entryBytes). */
function state(w: Writer, message: State, reuse = false): void {
  if (message.composite !== undefined) {
    w.varint(10);
    const at = w.fork();
    resource(w, message.composite);
    w.join(at);
  }
  for (const [name, value] of Object.entries(message.resources)) {
    if (value === undefined) entry(w, 18, name, undefined);
    else if (reuse && plain(value)) reused(w, entryBytes, name, value.resource, () => entry(w, 18, name, () => resource(w, value)));
    else entry(w, 18, name, () => resource(w, value));
  }
}

/** RunFunctionRequest.encode(request).finish(), written directly, observed state mostly copied (entryBytes, fieldBytes). */
export function writeRequest(request: RunFunctionRequest): Uint8Array {
  const codec = speedLayers().codec;
  if (codec) return codec.encode(request);
  // Credentials and required schemas: drift's world sends neither (the writer has no code for them).
  if (Object.keys(request.credentials).length > 0 || Object.keys(request.requiredSchemas).length > 0) {
    throw new Error('drift writes no credentials or required schemas into a RunFunctionRequest');
  }
  const w = writer;
  w.pos = 0;
  const { meta, observed, desired, input, context } = request;
  if (meta !== undefined) {
    w.varint(10);
    const at = w.fork();
    if (meta.tag !== '') {
      w.varint(10);
      w.string(meta.tag);
    }
    // The generated encoder writes the packed capabilities even when there are none.
    w.varint(18);
    const packed = w.fork();
    for (const capability of meta.capabilities) w.int32(capability);
    w.join(packed);
    w.join(at);
  }
  if (observed !== undefined) {
    w.varint(18);
    const at = w.fork();
    state(w, observed, true);
    w.join(at);
  }
  if (desired !== undefined) {
    w.varint(26);
    const at = w.fork();
    state(w, desired);
    w.join(at);
  }
  for (const [tag, object] of [
    [34, input],
    [42, context],
  ] as const) {
    if (object === undefined) continue;
    w.varint(tag);
    const at = w.fork();
    struct(w, object);
    w.join(at);
  }
  for (const [tag, map] of [
    [50, request.extraResources],
    [66, request.requiredResources],
  ] as const) {
    for (const [name, resources] of Object.entries(map)) {
      entry(
        w,
        tag,
        name,
        resources === undefined
          ? undefined
          : () => {
              for (const item of resources.items) {
                w.varint(10);
                const at = w.fork();
                resource(w, item);
                w.join(at);
              }
            },
      );
    }
  }
  return w.copy(0);
}
