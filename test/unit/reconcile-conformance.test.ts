/**
 * The conformance suite of Crossplane's semantics behind `Reconciler` (src/world/crossplane.ts): what
 * any engine backing drift's simulation must do in one reconcile, checked against a fake control
 * plane and scripted functions. drift's own engine runs it here; another engine (one real
 * Reconcile() against a fake client) would be added to ENGINES.
 */
import { Ready, RunFunctionResponse, Severity, type RunFunctionRequest } from '@crossplane-org/function-sdk-typescript';
import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../src/config/types.js';
import { crossplane, MAX_REQUIREMENT_ITERATIONS, type Caller, type ControlPlane, type Reconciler } from '../../src/world/crossplane.js';
import type { Selector } from '../../src/world/trace.js';
import type { JsonObject } from '../../src/util/objects.js';

const ENGINES: Array<[string, Reconciler]> = [['drift', crossplane]];

const XR: K8sObject = { apiVersion: 'example.org/v1', kind: 'XCluster', metadata: { name: 'demo', namespace: 'team' }, spec: {} };
const SECRET: K8sObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds', namespace: 'team' } };

/** A control plane holding `observed` and answering requirements for Secrets by name from `secrets`. */
function plane(observed: Record<string, JsonObject> = {}, secrets: K8sObject[] = [SECRET]): ControlPlane & { asked: Array<Record<string, Selector>> } {
  const asked: Array<Record<string, Selector>> = [];
  return {
    xr: XR,
    observed: new Map(Object.entries(observed)),
    asked,
    required(requirements) {
      asked.push(requirements);
      return Object.fromEntries(Object.entries(requirements).map(([name, selector]) => [name, secrets.filter((secret) => secret.kind === selector.kind && secret.metadata.name === selector.matchName)]));
    },
  };
}

const resource = (kind: string): JsonObject => ({ apiVersion: 'example.org/v1', kind, metadata: {} });

function answer(parts: { requires?: string; resources?: Record<string, Ready>; composite?: Ready; fatal?: string } = {}): RunFunctionResponse {
  return RunFunctionResponse.fromPartial({
    ...(parts.requires ? { requirements: { resources: { creds: { apiVersion: 'v1', kind: 'Secret', matchName: parts.requires } } } } : {}),
    desired: {
      ...(parts.composite !== undefined ? { composite: { resource: { status: {} }, ready: parts.composite } } : {}),
      resources: Object.fromEntries(Object.entries(parts.resources ?? {}).map(([key, ready]) => [key, { resource: resource(key), ready }])),
    },
    results: parts.fatal ? [{ severity: Severity.SEVERITY_FATAL, message: parts.fatal }] : [],
  });
}

/** A function answering from a script, one entry a call (the last one repeats), recording its requests. */
function scripted(...answers: RunFunctionResponse[]): { call: Caller; requests: RunFunctionRequest[] } {
  const requests: RunFunctionRequest[] = [];
  return { requests, call: async (request) => answers[Math.min(requests.push(request), answers.length) - 1]! };
}

describe.each(ENGINES)('the %s reconcile engine', (_name, engine) => {
  it('calls the function once when it requires nothing', async () => {
    const fn = scripted(answer({ resources: { cluster: Ready.READY_TRUE } }));
    const result = await engine.reconcile(plane(), fn.call);
    expect([result.calls, fn.requests.length, result.satisfied]).toEqual([1, 1, []]);
  });

  it('runs the requirements loop: calls again with what the function required until its requirements stop changing', async () => {
    const world = plane();
    const fn = scripted(answer({ requires: 'creds' }));
    const result = await engine.reconcile(world, fn.call);
    expect(result.calls).toBe(2);
    expect(fn.requests[0]!.requiredResources).toEqual({});
    expect(Object.keys(fn.requests[1]!.requiredResources)).toEqual(['creds']);
    expect(result.satisfied).toEqual(['creds']);
    expect(result.request).toBe(fn.requests[1]);
  });

  it('pre-satisfies the previous reconcile\'s requirements on the first call, so a settled function is called once', async () => {
    const fn = scripted(answer({ requires: 'creds' }));
    const result = await engine.reconcile(plane(), fn.call, { creds: { apiVersion: 'v1', kind: 'Secret', matchName: 'creds' } });
    expect(result.calls).toBe(1);
    expect(Object.keys(fn.requests[0]!.requiredResources)).toEqual(['creds']);
  });

  it('answers a requirement that matches nothing as present with zero items, not satisfied', async () => {
    const fn = scripted(answer({ requires: 'absent' }));
    const result = await engine.reconcile(plane({}, []), fn.call);
    expect(fn.requests[1]!.requiredResources.creds?.items).toEqual([]);
    expect(result.satisfied).toEqual([]);
  });

  it(`gives up when the requirements never settle (more than ${MAX_REQUIREMENT_ITERATIONS} iterations)`, async () => {
    let n = 0;
    const call: Caller = async () => answer({ requires: `secret-${(n += 1)}` });
    await expect(engine.reconcile(plane(), call)).rejects.toThrow(/did not stabilize/);
    expect(n).toBe(MAX_REQUIREMENT_ITERATIONS + 1);
  });

  it('stops at a Fatal result', async () => {
    await expect(engine.reconcile(plane(), scripted(answer({ fatal: 'no region' })).call)).rejects.toThrow(/Fatal result: no region/);
  });

  it('deletes what the function stops returning', async () => {
    const world = plane({ cluster: resource('Cluster'), pool: resource('NodePool'), bucket: resource('Bucket') });
    const result = await engine.reconcile(world, scripted(answer({ resources: { cluster: Ready.READY_TRUE } })).call);
    expect(result.dropped).toEqual(['bucket', 'pool']);
  });

  it('holds the XR Ready only when every composed resource is READY_TRUE; unspecified counts as not ready', async () => {
    const ready = await engine.reconcile(plane(), scripted(answer({ resources: { a: Ready.READY_TRUE, b: Ready.READY_TRUE } })).call);
    const unspecified = await engine.reconcile(plane(), scripted(answer({ resources: { a: Ready.READY_TRUE, b: Ready.READY_UNSPECIFIED } })).call);
    const unready = await engine.reconcile(plane(), scripted(answer({ resources: { a: Ready.READY_FALSE } })).call);
    expect([ready.xrReady, unspecified.xrReady, unready.xrReady]).toEqual([true, false, false]);
  });

  it('lets the function set the XR\'s readiness explicitly', async () => {
    const forced = await engine.reconcile(plane(), scripted(answer({ resources: { a: Ready.READY_FALSE }, composite: Ready.READY_TRUE })).call);
    const withheld = await engine.reconcile(plane(), scripted(answer({ resources: { a: Ready.READY_TRUE }, composite: Ready.READY_FALSE })).call);
    expect([forced.xrReady, withheld.xrReady]).toEqual([true, false]);
  });

  it('sends the XR and every observed resource, with an empty desired state (the first function of a pipeline)', async () => {
    const fn = scripted(answer());
    await engine.reconcile(plane({ cluster: resource('Cluster') }), fn.call);
    const [request] = fn.requests;
    expect(request!.observed?.composite?.resource).toEqual(XR);
    expect(Object.keys(request!.observed?.resources ?? {})).toEqual(['cluster']);
    expect(request!.desired?.resources).toEqual({});
  });
});
