import { createHash } from 'node:crypto';
import type { Adapter, K8sObject, Scenario } from '../config/types.js';
import { checkXr, type XrdUnchecked, type XrdViolation } from '../config/xrd.js';
import { DriftError } from '../errors.js';
import { fillSpec, type IntentField, type TemplateError } from './intent.js';

/** A deterministic uid, so composed names and traces are the same on every run. */
export function xrUid(scenario: Pick<Scenario, 'xr'>): string {
  const hex = createHash('sha256').update(`${scenario.xr.namespace}/${scenario.xr.name}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The XR an adapter builds for a scenario, with everything that is wrong with it. */
export interface MappedIntent {
  xr: K8sObject;
  errors: TemplateError[];
  unplaced: IntentField[];
  violations: XrdViolation[];
  unchecked: XrdUnchecked[];
}

/**
 * Maps a scenario's intent through the adapter's XR template, then, when the adapter names an XRD,
 * validates and defaults the result as the API server would on create.
 */
export function mapIntent(adapter: Adapter, scenario: Scenario): MappedIntent {
  const filled = fillSpec(adapter, scenario);
  const xr: K8sObject = {
    apiVersion: adapter.xr.apiVersion,
    kind: adapter.xr.kind,
    metadata: { name: scenario.xr.name, namespace: scenario.xr.namespace, uid: xrUid(scenario) },
    spec: filled.spec,
  };
  const mapped = { xr, errors: filled.errors, unplaced: filled.unplaced, violations: [], unchecked: [] };
  if (!adapter.xrd || filled.errors.length) return mapped;
  const checked = checkXr(adapter.xrd, xr);
  return { ...mapped, xr: checked.xr as K8sObject, violations: checked.violations, unchecked: checked.unchecked };
}

// Every simulation of a cell (ablations, replays) starts from the same XR: build it once.
const built = new WeakMap<Adapter, WeakMap<Scenario, K8sObject>>();

/**
 * The provider's XR for a scenario, a fresh copy each call (a world writes its status). loadProject
 * has already mapped every adapter × scenario and reported problems with their locations; one here
 * means the project was not loaded through it.
 */
export function buildXR(adapter: Adapter, scenario: Scenario): K8sObject {
  let byScenario = built.get(adapter);
  if (!byScenario) built.set(adapter, (byScenario = new WeakMap()));
  let xr = byScenario.get(scenario);
  if (!xr) {
    const mapped = mapIntent(adapter, scenario);
    const problem = mapped.errors[0]?.problem ?? mapped.violations[0]?.problem ?? (mapped.unplaced[0] && `${mapped.unplaced[0].name} is not placed`);
    if (problem) throw new DriftError(`${adapter.file}: the XR for scenario ${scenario.name} is invalid: ${problem}`);
    xr = mapped.xr;
    byScenario.set(scenario, xr);
  }
  return structuredClone(xr);
}

/**
 * The world's credential resources for this scenario: the adapter's, renamed to the XR's credentials
 * reference. A namespaced ProviderConfig lives in the XR's namespace.
 */
export function worldCredentials(adapter: Adapter, scenario: Scenario): K8sObject[] {
  const ref = scenario.xr.credentials;
  return adapter.world.credentials.map((resource) => {
    if (!ref) return structuredClone(resource);
    const { namespace: _namespace, ...metadata } = resource.metadata;
    return {
      ...structuredClone(resource),
      kind: ref.kind,
      metadata: { ...metadata, name: ref.name, ...(ref.kind === 'ProviderConfig' ? { namespace: scenario.xr.namespace } : {}) },
    };
  });
}
