import type { Adapter, Scenario } from '../config/types.js';
import { xrUid } from '../config/intent.js';
import { derivedTokens } from '../skeleton/derivedTokens.js';
import { buildRequest, readResponse } from '../world/protocol.js';
import type { Caller } from '../world/simulate.js';
import { buildXR } from '../world/xr.js';

/** Finds, once per XR identity, the name suffixes a function derives; see `derivedFinder`. */
export type DerivedFinder = (scenario: Scenario) => Promise<readonly string[]>;

/** A name no scenario's XR is likely to carry, and never the scenario's own. */
function twinName(name: string): string {
  return name === 'drift-twin' ? 'drift-twin-b' : 'drift-twin';
}

/**
 * What a provider's function derives from the XR's identity, for templating skeletons. The first
 * step of the first scenario (in project order) with that XR name and namespace is rendered again
 * under a twin name and uid, and the two answers compared (derivedTokens). Through the provider's
 * memo the first render is the one the cells make anyway, so this costs one RunFunction call per
 * provider and XR identity (the bundled scenarios share one). Suffixes derived only from later
 * steps' observed state are not seen, and a function that fails under the twin name derives
 * nothing: its suffixes stay literal, where the goldens show them.
 */
export function derivedFinder(call: Caller, adapter: Adapter, scenarios: readonly Scenario[]): DerivedFinder {
  const found = new Map<string, Promise<readonly string[]>>();
  const identity = (scenario: Scenario) => `${scenario.xr.namespace}/${scenario.xr.name}`;
  return (scenario) => {
    const key = identity(scenario);
    let tokens = found.get(key);
    if (!tokens) {
      const first = scenarios.find((candidate) => identity(candidate) === key) ?? scenario;
      found.set(key, (tokens = find(call, adapter, first)));
    }
    return tokens;
  };
}

async function find(call: Caller, adapter: Adapter, scenario: Scenario): Promise<readonly string[]> {
  const xr = buildXR(adapter, scenario);
  const twin = twinName(scenario.xr.name);
  const twinXr = structuredClone(xr);
  twinXr.metadata = { ...twinXr.metadata, name: twin, uid: xrUid({ xr: { ...scenario.xr, name: twin } }) };
  try {
    const [base, other] = await Promise.all([call(buildRequest(xr, new Map(), undefined)), call(buildRequest(twinXr, new Map(), undefined))]);
    return derivedTokens(readResponse(base), readResponse(other), { base: scenario.xr.name, twin });
  } catch {
    return [];
  }
}
