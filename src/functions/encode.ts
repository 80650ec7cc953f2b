import { BinaryWriter } from '@bufbuild/protobuf/wire';
import { Resource, RunFunctionRequest, State } from '@crossplane-org/function-sdk-typescript';

/**
 * Keys and wire bytes for RunFunction requests, cheaply. The world never changes an observed object
 * once it is set (it sets a new one) and keeps an unchanged resource's object from step to step, so
 * each object's JSON text and encoded map entry are computed once and reused by every request that
 * carries it: most of a request is observed state that did not change since the last one.
 */
const texts = new WeakMap<object, string>();
const entries = new WeakMap<object, { key: string; bytes: Uint8Array }>();

function textOf(resource: object): string {
  let text = texts.get(resource);
  if (text === undefined) {
    text = JSON.stringify(resource);
    texts.set(resource, text);
  }
  return text;
}

/** A string equal for two requests exactly when they carry the same content. */
export function requestKey(request: RunFunctionRequest): string {
  const { observed, ...rest } = request;
  let key = JSON.stringify(rest);
  if (observed) {
    key += `\u0000${JSON.stringify(observed.composite)}`;
    for (const [name, { resource, ...wrapper }] of Object.entries(observed.resources)) {
      key += `\u0000${name}\u0000${JSON.stringify(wrapper)}\u0000${resource ? textOf(resource) : ''}`;
    }
  }
  return key;
}

/** The request's wire bytes; each observed resource's map entry is encoded once per object. */
export function encodeRequest(request: RunFunctionRequest): Uint8Array {
  const { observed, ...rest } = request;
  const writer = new BinaryWriter();
  RunFunctionRequest.encode({ ...rest, observed: undefined }, writer);
  if (observed) {
    writer.uint32(18).fork(); // field 2, observed: State
    if (observed.composite) Resource.encode(observed.composite, writer.uint32(10).fork()).join();
    for (const [name, value] of Object.entries(observed.resources)) writer.raw(entryBytes(name, value));
    writer.join();
  }
  return writer.finish();
}

/** One `resources` map entry of a State, tag included: exactly what State.encode writes for it. */
function entryBytes(name: string, value: Resource): Uint8Array {
  const plain = value.resource && Object.keys(value.connectionDetails).length === 0 && value.ready === 0;
  const cached = plain ? entries.get(value.resource!) : undefined;
  if (cached && cached.key === name) return cached.bytes;
  const bytes = State.encode({ composite: undefined, resources: { [name]: value } }).finish();
  if (plain) entries.set(value.resource!, { key: name, bytes });
  return bytes;
}
