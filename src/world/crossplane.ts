/**
 * Crossplane's own semantics, as drift simulates them, behind one interface: one reconcile in, one
 * answer out. The scenario's world (credentials, cloud facts, perturbations: src/world/simulate.ts)
 * sits on the other side of `ControlPlane`. A higher-fidelity engine (Crossplane's draft render-engine
 * design: one real Reconcile() against a fake client, called repeatedly by a harness) could back
 * `Reconciler` instead; test/unit/reconcile-conformance.test.ts is the suite any engine must pass.
 */
import type { RunFunctionRequest, RunFunctionResponse } from '@crossplane-org/function-sdk-typescript';
import type { K8sObject } from '../config/types.js';
import type { JsonObject } from '../util/objects.js';
import { buildRequest, readResponse, type Answer } from './protocol.js';
import type { Selector } from './trace.js';

/** The Crossplane release whose function-pipeline semantics this module mirrors (the `crossplane render` drift was measured against), with crossplane/crossplane#7572's remembered requirements. */
export const CROSSPLANE_VERSION = 'v2.0';

/** Sends one RunFunction request to the provider's function. */
export type Caller = (request: RunFunctionRequest) => Promise<RunFunctionResponse>;

/** Crossplane re-runs a function for its requirements at most this many times, then gives up. */
export const MAX_REQUIREMENT_ITERATIONS = 5;

/** What Crossplane reads of the cluster for one reconcile: the XR, the composed resources, what requirements fetch. */
export interface ControlPlane {
  readonly xr: K8sObject;
  /** Observed composed resources, by composition-resource-name. */
  readonly observed: ReadonlyMap<string, JsonObject>;
  /** The resources each requirement fetches; one that matches nothing is present with no items. */
  required(requirements: Record<string, Selector>): Record<string, K8sObject[]>;
}

/** What one reconcile decided. */
export interface Reconciled {
  /** The request of the call whose answer counts (the last of the requirements loop). */
  request: RunFunctionRequest;
  answer: Answer;
  /** RunFunction calls the reconcile took. */
  calls: number;
  /** Requirements the control plane answered with at least one resource, sorted. */
  satisfied: string[];
  /** Observed keys the function no longer desires: Crossplane deletes them. */
  dropped: string[];
  /** The XR's Ready condition after this reconcile. */
  xrReady: boolean;
}

/** A function's Fatal result: Crossplane stops the reconcile and applies nothing. */
export class FatalResult extends Error {}

export interface Reconciler {
  /**
   * One reconcile of the XR against `plane`. `remembered` is what the function required at the
   * previous reconcile, which Crossplane pre-satisfies on the first call.
   */
  reconcile(plane: ControlPlane, call: Caller, remembered?: Record<string, Selector>): Promise<Reconciled>;
}

/**
 * The XR is Ready when the function says so explicitly, else when every composed resource in the
 * final desired state is marked READY_TRUE (unspecified counts as not ready).
 */
export function xrReadyOf(answer: Answer): boolean {
  if (answer.compositeReady !== 'Unspecified') return answer.compositeReady === 'True';
  return Object.values(answer.resources).every((resource) => resource.ready === 'True');
}

/** drift's own engine: the requirements loop, deletion of what is no longer desired, XR readiness. */
export const crossplane: Reconciler = {
  async reconcile(plane, call, remembered) {
    // Start from the remembered requirements (none at first: crossplane/crossplane#7572), call again
    // with what the function asked for until its requirements equal the previous call's.
    let requirements = JSON.stringify(remembered ?? {});
    let required = remembered ? plane.required(remembered) : undefined;
    for (let iteration = 0, calls = 1; ; iteration += 1, calls += 1) {
      const request = buildRequest(plane.xr, plane.observed, required);
      const answer = readResponse(await call(request));
      const fatal = answer.results.find((result) => result.severity === 'Fatal');
      if (fatal) throw new FatalResult(`the function returned a Fatal result: ${fatal.message}`);
      const asked = JSON.stringify(answer.requirements);
      if (asked === requirements) {
        const satisfied = Object.keys(answer.requirements).filter((name) => (required?.[name]?.length ?? 0) > 0).sort();
        const dropped = [...plane.observed.keys()].filter((key) => !(key in answer.resources)).sort();
        return { request, answer, calls, satisfied, dropped, xrReady: xrReadyOf(answer) };
      }
      if (iteration === MAX_REQUIREMENT_ITERATIONS) {
        throw new Error(`the function's requirements did not stabilize after ${MAX_REQUIREMENT_ITERATIONS} iterations, as Crossplane requires`);
      }
      requirements = asked;
      required = plane.required(answer.requirements);
    }
  },
};
