import type { RunFunctionRequest } from '@crossplane-org/function-sdk-typescript';
import { writeRequest } from './requestWriter.js';
import { MemoWeakMap } from '../util/memoMap.js';

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
const requests = new MemoWeakMap<RunFunctionRequest, Uint8Array>();

/** The request's wire bytes, written once per request. */
export function encodeRequest(request: RunFunctionRequest): Uint8Array {
  let bytes = requests.get(request);
  if (!bytes) requests.set(request, (bytes = writeRequest(request)));
  return bytes;
}
