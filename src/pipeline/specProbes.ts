import type { RunFunctionRequest } from '@crossplane-org/function-sdk-typescript';
import type { Adapter, Scenario } from '../config/types.js';
import { escapeRegExp, isObject } from '../util/objects.js';
import { readResponse } from '../world/protocol.js';
import type { Caller } from '../world/simulate.js';
import type { Trace } from '../world/trace.js';
import { mapIntent } from '../config/intent.js';
import type { SpecProbes } from '../compare/rules/types.js';

export type { SpecProbes };

/** The region a probe moves the XR to: a name no cloud uses, sharing no word with a real one. */
export const PROBE_REGION = 'drift-probe-region';
/** The system pool's name: a user pool of that name collides with the pool the function injects. */
export const SYSTEM_POOL_NAME = 'system';

/**
 * The spec probes of one `ablate` cell that converged, from its converged request: one call each,
 * through the provider's memo. A probe whose call fails says nothing (the region probe) or counts as
 * stopped (the invalid spec: Crossplane applies nothing from a failed call either).
 */
export async function analyzeSpec(call: Caller, adapter: Adapter, scenario: Scenario, baseline: Trace, converged: RunFunctionRequest | undefined): Promise<SpecProbes> {
  if (!scenario.ablate || baseline.error || !baseline.converged || !converged?.observed?.composite?.resource) return {};
  const [region, invalidSpec] = await Promise.all([regionProbe(call, adapter, converged), invalidSpecProbe(call, adapter, scenario, converged)]);
  return { ...(region ? { region } : {}), ...(invalidSpec ? { invalidSpec } : {}) };
}

async function regionProbe(call: Caller, adapter: Adapter, converged: RunFunctionRequest): Promise<SpecProbes['region']> {
  const value = adapter.values.region;
  if (!value || value === PROBE_REGION) return undefined;
  let answer;
  try {
    answer = readResponse(await call(swapRegion(converged, value, PROBE_REGION)));
  } catch {
    return undefined;
  }
  if (answer.results.some((result) => result.severity === 'Fatal')) return undefined;
  const kept: Record<string, string[]> = {};
  for (const key of Object.keys(answer.resources).sort()) {
    const paths = pathsHolding(answer.resources[key]!.resource, regionPattern(value));
    if (paths.length) kept[key] = paths;
  }
  // The XR's own status is composed too: a region it publishes is the function's.
  const published = pathsHolding(answer.status, regionPattern(value));
  if (published.length) kept.status = published.map((at) => `status.${at}`);
  return { value, probe: PROBE_REGION, kept };
}

/**
 * The request with every whole-word use of the region (`us-central1`, `us-central1-a`) carrying the
 * probe's instead, in the XR, in observed state (what earlier steps composed from it) and in required
 * resources, as if the XR had asked for that region from the start.
 */
export function swapRegion(request: RunFunctionRequest, region: string, probe: string): RunFunctionRequest {
  const pattern = regionPattern(region);
  const swap = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(pattern, probe);
    if (Array.isArray(value)) return value.map(swap);
    // Plain objects only: bytes (credentials) pass through whole.
    if (isObject(value) && Object.getPrototypeOf(value) === Object.prototype) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, swap(item)]));
    return value;
  };
  return swap(request) as RunFunctionRequest;
}

/** The region as a word of a string: `us-central1` in `us-central1-a`, `us-west-2` in `us-west-2a`, never in `us-west-21`. */
const regionPattern = (region: string) => new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(region)}(?![0-9])`, 'g');

/** The dotted paths of `body`'s strings that hold `pattern`, sorted. */
function pathsHolding(body: unknown, pattern: RegExp): string[] {
  const out: string[] = [];
  const walk = (node: unknown, at: string) => {
    if (typeof node === 'string') {
      if (node.search(pattern) >= 0) out.push(at);
    } else if (Array.isArray(node)) node.forEach((item, index) => walk(item, `${at}[${index}]`));
    else if (isObject(node)) for (const [key, item] of Object.entries(node)) walk(item, at ? `${at}.${key}` : key);
  };
  walk(body, '');
  return out.sort();
}

async function invalidSpecProbe(call: Caller, adapter: Adapter, scenario: Scenario, converged: RunFunctionRequest): Promise<SpecProbes['invalidSpec']> {
  const [first, ...rest] = scenario.xr.nodePools;
  if (!first || first.name === SYSTEM_POOL_NAME) return undefined;
  const probe = `drift's invalid-spec probe (pools[0].name = "${SYSTEM_POOL_NAME}")`;
  const nodePools = [{ ...first, name: SYSTEM_POOL_NAME }, ...rest];
  // Sent whether the XRD refuses it or not: validation on write does not reach an XR stored before the
  // XRD changed, and the function is what decides what gets deleted.
  const mapped = mapIntent(adapter, { ...scenario, xr: { ...scenario.xr, nodePools }, then: [], probe });
  if (mapped.errors.length) return undefined;
  const xr = mapped.xr;
  const composite = converged.observed!.composite!;
  const request: RunFunctionRequest = { ...converged, observed: { ...converged.observed!, composite: { ...composite, resource: { ...xr, status: composite.resource!.status } } } };
  try {
    const answer = readResponse(await call(request));
    const stopped = answer.results.some((result) => result.severity === 'Fatal');
    return { probe, stopped, composed: Object.keys(answer.resources).length };
  } catch {
    return { probe, stopped: true, composed: 0 };
  }
}
