import type { RunFunctionRequest } from '@crossplane-org/function-sdk-typescript';
import type { Adapter } from '../config/types.js';
import { xrUid } from '../config/intent.js';
import { bytesKey, encodeRequest } from '../functions/encode.js';
import { derivedTokens } from '../skeleton/derivedTokens.js';
import { escapeRegExp, isObject } from '../util/objects.js';
import { readResponse, type Answer } from '../world/protocol.js';
import type { Caller } from '../world/simulate.js';
import type { Trace } from '../world/trace.js';

/**
 * Finds the name suffixes a function derived in one cell: given the cell's trace, the request its
 * converged step sent and the answer it got, the tokens to template to `{hash}`.
 */
export type DerivedFinder = (trace: Trace, converged: { request: RunFunctionRequest; answer: Answer } | undefined) => Promise<readonly string[]>;

/** A name no scenario's XR is likely to carry, and never the scenario's own. */
function twinName(name: string): string {
  return name === 'drift-twin' ? 'drift-twin-b' : 'drift-twin';
}

/**
 * What a provider's function derives from the XR's identity, for templating skeletons. The request
 * of each cell's converged step is sent again as if the XR had another name and uid (twinRequest),
 * and the two answers compared (derivedTokens): whatever step composed a name, the converged answer
 * still carries it. One call per cell at most, through the provider's memo, so cells that converge
 * on the same request (scenarios alike until a perturbation) share it. A function that fails under
 * the twin name derives nothing: its suffixes stay literal, where the goldens show them. Names
 * composed only after a perturbation are not seen.
 */
export function derivedFinder(call: Caller, adapter: Pick<Adapter, 'values'>): DerivedFinder {
  // By the converged request's bytes, which hold the XR's name, uid and namespace: cells that
  // converge alike get one twin, not one rewrite of the whole request each (most cells do).
  const found = new Map<string, Promise<readonly string[]>>();
  const find = async (trace: Trace, converged: { request: RunFunctionRequest; answer: Answer }): Promise<readonly string[]> => {
    const twin = twinName(trace.xr.name);
    const request = twinRequest(converged.request, adapter.values, { name: trace.xr.name, uid: trace.xr.uid }, { name: twin, uid: xrUid({ xr: { name: twin, namespace: trace.xr.namespace, nodePools: [] } }) });
    try {
      return derivedTokens(converged.answer, readResponse(await call(request)), { base: trace.xr.name, twin });
    } catch {
      return [];
    }
  };
  return (trace, converged) => {
    if (trace.error || !converged) return Promise.resolve([]);
    const key = bytesKey(encodeRequest(converged.request));
    let tokens = found.get(key);
    if (!tokens) {
      tokens = find(trace, converged);
      found.set(key, tokens);
    }
    return tokens;
  };
}

interface Identity {
  name: string;
  uid: string;
}

/**
 * The request as Crossplane would have sent it for an XR of another name and uid: every string that
 * carries the XR's name (as a whole word) or its uid carries the twin's, in the XR, in observed
 * state (which holds what the function composed from the name in earlier steps) and in required
 * resources. The adapter's values (`demo-project`) are the cloud's own strings, never the XR's, and
 * stay as they are even where the name is a word of them. Keys stay: they are composed-resource
 * keys and field names.
 */
export function twinRequest(request: RunFunctionRequest, values: Record<string, string>, base: Identity, twin: Identity): RunFunctionRequest {
  const kept = Object.values(values).filter((value) => value.length > 0);
  const replaced = new Map<string, string>([
    [base.name, twin.name],
    [base.uid, twin.uid],
    ...kept.map((value): [string, string] => [value, value]),
  ]);
  const alternatives = [...replaced.keys()].sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).map(escapeRegExp);
  const pattern = new RegExp(`(?<![A-Za-z0-9])(?:${alternatives.join('|')})(?![A-Za-z0-9])`, 'g');
  const swap = (value: unknown): unknown => {
    // A string holding neither the name nor the uid has nothing to swap: most of a request's strings.
    if (typeof value === 'string') return value.includes(base.name) || value.includes(base.uid) ? value.replace(pattern, (match) => replaced.get(match) ?? match) : value;
    if (Array.isArray(value)) return value.map(swap);
    // Plain objects only: bytes (credentials) pass through whole.
    if (isObject(value) && Object.getPrototypeOf(value) === Object.prototype) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, swap(item)]));
    return value;
  };
  // Every field of the request is kept (swap copies plain objects whole), so the copy is a whole message.
  return swap(request) as RunFunctionRequest;
}
