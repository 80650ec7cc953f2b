import type { RunFunctionResponse } from '@crossplane-org/function-sdk-typescript';
import type { Caller } from '../world/simulate.js';
import type { Send } from './client.js';
import { bytesKey, encodeRequest } from './encode.js';

/**
 * Answers a request the process has already answered from memory. Scenarios share their first steps
 * (same XR, same world until a perturbation) and ablations share the baseline's steps until the
 * withheld fact would show, so most requests repeat exactly. The key is the request's wire bytes
 * (the world builds every object in one order, so equal requests give equal bytes); about half the
 * lookups hit, and a miss sends the bytes it was keyed by (looked up first in the persistent answer
 * cache, providerRender.ts). The determinism check replays through a memo of its own, so each of its
 * requests reaches the function once.
 */
export function memoize(send: Send): Caller {
  const answers = new Map<string, Promise<RunFunctionResponse>>();
  return (request) => {
    const bytes = encodeRequest(request);
    const key = bytesKey(bytes);
    let answer = answers.get(key);
    if (!answer) {
      answer = send(bytes);
      answers.set(key, answer);
    }
    return answer;
  };
}
