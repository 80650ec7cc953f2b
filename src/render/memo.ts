import { createHash } from 'node:crypto';
import { RunFunctionRequest } from '@crossplane-org/function-sdk-typescript';
import type { Caller } from '../world/simulate.js';

/**
 * Answers a request the process has already answered from memory. Scenarios share their first steps
 * (same XR, same world until a perturbation) and ablations share the baseline's steps until the
 * withheld fact would show, so most of those requests repeat byte for byte. The determinism check
 * bypasses this: it must reach the function every time.
 */
export function memoize(call: Caller): Caller {
  const answers = new Map<string, ReturnType<Caller>>();
  return (request) => {
    const key = createHash('sha256').update(RunFunctionRequest.encode(request).finish()).digest('base64');
    let answer = answers.get(key);
    if (!answer) {
      answer = call(request);
      answers.set(key, answer);
    }
    return answer;
  };
}
