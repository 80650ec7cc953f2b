import { createHash } from 'node:crypto';
import { RunFunctionRequest, type RunFunctionResponse } from '@crossplane-org/function-sdk-typescript';
import type { Caller } from '../world/simulate.js';
import type { Send } from './client.js';

/**
 * Answers a request the process has already answered from memory. Scenarios share their first steps
 * (same XR, same world until a perturbation) and ablations share the baseline's steps until the
 * withheld fact would show, so most of those requests repeat byte for byte. The request is encoded
 * once: the bytes are the key, and the same bytes go on the wire. The determinism check bypasses
 * this for first renders: it must reach the function every time.
 */
export function memoize(send: Send): Caller {
  const answers = new Map<string, Promise<RunFunctionResponse>>();
  return (request) => {
    const encoded = RunFunctionRequest.encode(request).finish();
    const key = createHash('sha256').update(encoded).digest('base64');
    let answer = answers.get(key);
    if (!answer) {
      answer = send(encoded);
      answers.set(key, answer);
    }
    return answer;
  };
}
