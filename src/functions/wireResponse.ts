import { RunFunctionResponse } from '@crossplane-org/function-sdk-typescript';
import { rememberAnswer, type Answer } from '../world/protocol.js';
import { readAnswer } from './answerReader.js';

/**
 * A response read from its wire bytes: drift's answer is read straight from them (answerReader.ts)
 * and handed to readResponse; the generated message is decoded only if something asks for one of
 * its fields, which no render does.
 */
class WireResponse implements RunFunctionResponse {
  private decoded: RunFunctionResponse | undefined;

  constructor(private readonly bytes: Uint8Array) {}

  private get message(): RunFunctionResponse {
    this.decoded ??= RunFunctionResponse.decode(this.bytes);
    return this.decoded;
  }

  get meta() {
    return this.message.meta;
  }

  get desired() {
    return this.message.desired;
  }

  get results() {
    return this.message.results;
  }

  get context() {
    return this.message.context;
  }

  get requirements() {
    return this.message.requirements;
  }

  get conditions() {
    return this.message.conditions;
  }

  get output() {
    return this.message.output;
  }

  /** What JSON.stringify would write for the generated message. */
  toJSON(): unknown {
    return this.message;
  }
}

/**
 * Decodes a RunFunctionResponse. Bytes the fast reader is unsure of go to the generated decoder,
 * which accepts or rejects them as it always did (a rejection is the caller's parse error).
 */
export function decodeResponse(bytes: Uint8Array): RunFunctionResponse {
  let answer;
  try {
    answer = readAnswer(bytes);
  } catch {
    return RunFunctionResponse.decode(bytes);
  }
  const response = new WireResponse(bytes);
  rememberAnswer(response, answer);
  wires.set(answer, bytes);
  return response;
}

const wires = new WeakMap<Answer, Uint8Array>();

/**
 * Whether two answers are equal, judged by their wire bytes when both were read from them: equal
 * bytes read to equal answers. Undefined when that cannot tell (different bytes may still be the
 * same answer in another map order).
 */
export function sameWire(a: Answer, b: Answer): boolean | undefined {
  const x = wires.get(a);
  const y = wires.get(b);
  if (!x || !y || x.length !== y.length) return undefined;
  return Buffer.from(x.buffer, x.byteOffset, x.byteLength).equals(y) ? true : undefined;
}
