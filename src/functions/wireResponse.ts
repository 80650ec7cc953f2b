import { RunFunctionResponse } from '@crossplane-org/function-sdk-typescript';
import { rememberAnswer, type Answer } from '../world/protocol.js';
import type { JsonObject } from '../util/objects.js';
import { readAnswer } from './answerReader.js';
import { bytesKey } from './encode.js';

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
 * What one function process's answers have read so far (a client's, or one provider's entries of
 * the answer cache), by wire bytes: whole answers, and resource bodies (answerReader.ts). About half
 * of a run's answers repeat one read before (a determinism replay gets its render's bytes again, an
 * ablation often the baseline's), and most resources of a new answer repeat the last one's; reading
 * costs drift more than all else it does with an answer. Answers are never mutated
 * (world/protocol.ts), so one read is shared; it lives as long as its owner, one run.
 */
export interface ReadAnswers {
  answers: Map<string, Answer>;
  bodies: Map<string, JsonObject>;
}

export function readAnswers(): ReadAnswers {
  return { answers: new Map(), bodies: new Map() };
}

/**
 * Decodes a RunFunctionResponse. Bytes the fast reader is unsure of go to the generated decoder,
 * which accepts or rejects them as it always did (a rejection is the caller's parse error).
 */
export function decodeResponse(bytes: Uint8Array, read?: ReadAnswers): RunFunctionResponse {
  const key = read && bytesKey(bytes);
  let answer = key === undefined ? undefined : read!.answers.get(key);
  if (!answer) {
    try {
      answer = readAnswer(bytes, read?.bodies);
    } catch {
      return RunFunctionResponse.decode(bytes);
    }
    if (key !== undefined) read!.answers.set(key, answer);
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
