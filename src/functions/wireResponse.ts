import type { RunFunctionResponse } from '@crossplane-org/function-sdk-typescript';
import { rememberAnswer, type Answer } from '../world/protocol.js';
import type { JsonObject } from '../util/objects.js';
import { readAnswer } from './answerReader.js';
import { bytesKey } from './encode.js';
import { MemoMap, MemoWeakMap } from '../util/memoMap.js';
import { speedLayers } from '../util/speedLayers.js';

/**
 * A response read from its wire bytes: drift's answer is read straight from them (answerReader.ts)
 * and handed to readResponse, which is all drift asks of a response. The generated message is not
 * decoded (the function SDK is a dev dependency): asking for one of its fields is a bug, said so.
 */
class WireResponse implements RunFunctionResponse {
  private unread(): never {
    throw new Error("drift reads a function's answer from its wire bytes (world/protocol.ts readResponse), not the generated message's fields");
  }

  get meta() {
    return this.unread();
  }

  get desired() {
    return this.unread();
  }

  get results() {
    return this.unread();
  }

  get context() {
    return this.unread();
  }

  get requirements() {
    return this.unread();
  }

  get conditions() {
    return this.unread();
  }

  get output() {
    return this.unread();
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
  return { answers: new MemoMap(), bodies: new MemoMap() };
}

/** Decodes a RunFunctionResponse; bytes that are not one throw (the caller's parse error). */
export function decodeResponse(bytes: Uint8Array, read?: ReadAnswers): RunFunctionResponse {
  const codec = speedLayers().codec;
  if (codec) return codec.decode(bytes) as RunFunctionResponse;
  const key = read && bytesKey(bytes);
  let answer = key === undefined ? undefined : read!.answers.get(key);
  if (!answer) {
    answer = readAnswer(bytes, read?.bodies);
    if (key !== undefined) read!.answers.set(key, answer);
  }
  const response = new WireResponse();
  rememberAnswer(response, answer);
  wires.set(answer, bytes);
  return response;
}

const wires = new MemoWeakMap<Answer, Uint8Array>();

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
