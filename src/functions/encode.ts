import type { Resource, RunFunctionRequest } from '@crossplane-org/function-sdk-typescript';
import { writeRequest } from './requestWriter.js';

/**
 * Keys and wire bytes for RunFunction requests, cheaply. The world never changes an observed object
 * once it is set (it sets a new one) and keeps an unchanged resource's object from step to step, so
 * each object's encoded map entry is written once and reused by every request that carries it:
 * most of a request is observed state that did not change since the last one.
 */
const entries = new WeakMap<object, { key: string; bytes: Uint8Array }>();

/**
 * A string equal for two requests exactly when their wire bytes are equal: the bytes themselves,
 * one character a byte. Writing a request (with its unchanged entries reused) costs less than
 * serializing it as JSON, and a miss sends the same bytes.
 */
export function bytesKey(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/**
 * Each request's bytes, by request: a step's request is keyed by the memo, then replayed, twinned
 * and probed from, and nothing changes a request once it is built.
 */
const requests = new WeakMap<RunFunctionRequest, Uint8Array>();

/** The request's wire bytes; each observed resource's map entry is written once per object. */
export function encodeRequest(request: RunFunctionRequest): Uint8Array {
  let bytes = requests.get(request);
  if (!bytes) requests.set(request, (bytes = writeRequest(request, cachedEntry, keepEntry)));
  return bytes;
}

/** An entry's bytes depend on its name and its resource only when the wrapper carries nothing else. */
function plain(value: Resource): value is Resource & { resource: object } {
  return value.resource !== undefined && value.ready === 0 && Object.keys(value.connectionDetails).length === 0;
}

function cachedEntry(name: string, value: Resource): Uint8Array | undefined {
  if (!plain(value)) return undefined;
  const cached = entries.get(value.resource);
  return cached && cached.key === name ? cached.bytes : undefined;
}

function keepEntry(name: string, value: Resource, bytes: Uint8Array): void {
  if (plain(value)) entries.set(value.resource, { key: name, bytes });
}
