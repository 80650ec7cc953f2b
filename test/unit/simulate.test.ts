/** The reconcile loop against a scripted function: no process, every answer chosen by the test. */
import { Ready, RunFunctionResponse, Severity, type RunFunctionRequest } from '@crossplane-org/function-sdk-typescript';
import { describe, expect, it } from 'vitest';
import type { Adapter } from '../../src/config/types.js';
import { composedName } from '../../src/world/materialize.js';
import { simulate, type Caller } from '../../src/world/simulate.js';
import { scenarioOf } from '../helpers/fourth.js';

const adapter: Adapter = {
  name: 'scripted',
  file: '/nowhere/provider.yaml',
  dir: '/nowhere',
  function: { command: [], cwd: '/nowhere', env: {} },
  // The scripted function reads no XR field: the scenario's pool fields are ignored, as an adapter says so.
  xr: { apiVersion: 'example.org/v1', kind: 'Cluster', spec: {}, gpus: {}, ignore: { 'pools[].name': 'the scripted function reads no XR', 'pools[].nodeCount': 'the scripted function reads no XR' } },
  world: { credentials: [], observe: [], brokenCredentials: {} },
  roles: {},
  inline: {},
  values: {},
};

/** An answer that asks for one Secret, named `secret-<n>`: a different n is a different requirement. */
function asking(n: number): RunFunctionResponse {
  return RunFunctionResponse.fromPartial({
    requirements: { resources: { credentials: { apiVersion: 'v1', kind: 'Secret', matchName: `secret-${n}` } } },
  });
}

/**
 * A function whose requirement changes on each of its first `changes` calls and then stays; it
 * records every request it is sent.
 */
function settlingAfter(changes: number): { call: Caller; requests: RunFunctionRequest[] } {
  const requests: RunFunctionRequest[] = [];
  const call: Caller = async (request) => {
    requests.push(request);
    return asking(Math.min(requests.length, changes));
  };
  return { call, requests };
}

describe('simulate: the requirements loop', () => {
  // Crossplane calls a function at most six times in one reconcile for its requirements (the first
  // call and five more), then gives up; drift must give up at exactly the same point.
  it('gives up after six calls whose requirements never settle, naming the limit', async () => {
    const requests: RunFunctionRequest[] = [];
    const restless: Caller = async (request) => {
      requests.push(request);
      return asking(requests.length);
    };
    const trace = await simulate(restless, adapter, scenarioOf(), { maxSteps: 3 });
    expect(requests).toHaveLength(6);
    expect(trace.error).toBe("step 0: the function's requirements did not stabilize after 5 iterations, as Crossplane requires");
    expect(trace.steps).toEqual([]);
    expect(trace.converged).toBeNull();
  });

  it('accepts requirements that settle on the sixth call', async () => {
    // Calls 1-5 each ask for something new; call 6 repeats call 5: settled, just within the limit.
    const { call, requests } = settlingAfter(5);
    const trace = await simulate(call, adapter, scenarioOf(), { maxSteps: 3 });
    expect(trace.error).toBeUndefined();
    expect(trace.steps[0]!.calls).toBe(6);
    expect(trace.steps[0]!.requirements).toEqual({ credentials: { apiVersion: 'v1', kind: 'Secret', matchName: 'secret-5' } });
    // Each call but the first was sent what the previous one asked for.
    expect(requests.slice(0, 6).map((request) => Object.keys(request.requiredResources))).toEqual([[], ...Array(5).fill(['credentials'])]);
  });

  it('the next reconcile starts from the remembered requirements and settles in one call', async () => {
    const { call, requests } = settlingAfter(2);
    const trace = await simulate(call, adapter, scenarioOf(), { maxSteps: 3 });
    expect(trace.steps.map((step) => step.calls)).toEqual([3, 1]);
    expect(trace.converged).toEqual({ step: 0, xrReady: true });
    expect(Object.keys(requests[3]!.requiredResources)).toEqual(['credentials']);
  });
});

// ---- the world: what a scripted function's answers become in the next request ---------------------------

const CREDENTIALS = { apiVersion: 'example.org/v1', kind: 'ClusterProviderConfig', metadata: { name: 'default' } };
const withCredentials: Adapter = { ...adapter, world: { credentials: [CREDENTIALS], observe: [], brokenCredentials: {} } };

type Body = Record<string, unknown>;
const network = (extra: Body = {}): Body => ({ apiVersion: 'example.org/v1', kind: 'Network', spec: { providerConfigRef: { kind: 'ClusterProviderConfig', name: 'default' } }, ...extra });

/**
 * A function that composes what `compose(call)` returns, each resource marked ready, and records its
 * requests. Without `requires` it asks for nothing, so each step is one call and `call` is the step.
 */
function composing(compose: (call: number) => Record<string, Body>, options: { fatalAt?: number; requires?: boolean } = {}) {
  const requests: RunFunctionRequest[] = [];
  const call: Caller = async (request) => {
    requests.push(request);
    const step = requests.length - 1;
    const resources = Object.fromEntries(Object.entries(compose(step)).map(([key, resource]) => [key, { resource, ready: Ready.READY_TRUE }]));
    const results = step === options.fatalAt ? [{ severity: Severity.SEVERITY_FATAL, message: 'cannot go on' }] : [];
    return RunFunctionResponse.fromPartial({
      desired: { resources },
      ...(options.requires ? { requirements: { resources: { credentials: { apiVersion: 'example.org/v1', kind: 'ClusterProviderConfig', matchName: 'default' } } } } : {}),
      results,
    });
  };
  return { call, requests };
}

const observedIn = (request: RunFunctionRequest) => request.observed?.resources ?? {};
const conditionsOf = (resource: unknown) => ((resource as { status?: { conditions?: Array<{ type: string; status: string }> } }).status?.conditions ?? []).map((c) => `${c.type}=${c.status}`);

describe('simulate: the world', () => {
  it('observes each composed resource under a deterministic name, with its key, Ready as the scenario says', async () => {
    const { call, requests } = composing(() => ({ network: network() }));
    const scenario = scenarioOf('converge', { world: { ready: 'none' } });
    const trace = await simulate(call, withCredentials, scenario, { maxSteps: 5 });
    const observed = observedIn(requests.at(-1)!).network!.resource as { metadata: Record<string, unknown> };
    expect(observed.metadata.name).toBe(composedName({ apiVersion: 'example.org/v1', kind: 'Cluster', metadata: { name: trace.xr.name, uid: trace.xr.uid } }, 'network'));
    expect(observed.metadata.annotations).toEqual({ 'crossplane.io/composition-resource-name': 'network' });
    expect(observed.metadata.namespace).toBe(trace.xr.namespace);
    expect(conditionsOf(observed)).toEqual(['Ready=False', 'Synced=True']);
    expect(Object.keys(observedIn(requests[0]!))).toEqual([]);
  });

  it('converges when an answer repeats, and records which step first gave it', async () => {
    // Step 0 composes the network; from step 1 on, the answer no longer changes.
    const { call } = composing((step): Record<string, Body> => (step === 0 ? { network: network() } : { network: network(), subnet: network({ kind: 'Subnet' }) }));
    const trace = await simulate(call, withCredentials, scenarioOf(), { maxSteps: 6 });
    expect(trace.steps).toHaveLength(3);
    expect(trace.converged).toEqual({ step: 1, xrReady: true });
  });

  it('stops at the step cap without calling it converged', async () => {
    const { call, requests } = composing((step) => ({ [`network-${step}`]: network() }));
    const trace = await simulate(call, withCredentials, scenarioOf(), { maxSteps: 4 });
    expect(requests).toHaveLength(4);
    expect(trace.converged).toBeNull();
  });

  it('deletes what the function stops returning, and says so', async () => {
    const { call, requests } = composing((step): Record<string, Body> => (step === 0 ? { network: network(), subnet: network({ kind: 'Subnet' }) } : { network: network() }));
    const trace = await simulate(call, withCredentials, scenarioOf(), { maxSteps: 5 });
    expect(trace.steps.map((step) => step.dropped)).toEqual([[], ['subnet'], []]);
    expect(Object.keys(observedIn(requests[2]!))).toEqual(['network']);
  });

  it('answers the credentials requirement while credentials are present, and with nothing once they are removed', async () => {
    const { call, requests } = composing(() => ({ network: network() }), { requires: true });
    const scenario = scenarioOf('credentials-lost', { then: [{ do: 'remove-credentials', steps: 2 }] });
    const trace = await simulate(call, withCredentials, scenario, { maxSteps: 5 });
    const credentials = (request: RunFunctionRequest) => (request.requiredResources.credentials?.items ?? []).map((item) => item.resource?.metadata?.name);
    expect(trace.steps.map((step) => step.satisfied)).toEqual([['credentials'], ['credentials'], [], []]);
    expect(trace.steps.map((step) => step.phase)).toEqual(['converge', 'converge', 'remove-credentials', 'remove-credentials']);
    expect(trace.perturbations).toEqual([{ do: 'remove-credentials', from: 2, to: 3 }]);
    expect(credentials(requests.at(-1)!)).toEqual([]);
    // A resource that exists keeps its cloud state without its ProviderConfig, but is no longer synced.
    expect(conditionsOf(observedIn(requests.at(-1)!).network!.resource)).toEqual(['Ready=True', 'Synced=False']);
  });

  it('a missing-credentials world never creates what needs them', async () => {
    const { call, requests } = composing(() => ({ network: network() }));
    const scenario = scenarioOf('credentials-missing', { world: { credentials: 'missing' } });
    await simulate(call, withCredentials, scenario, { maxSteps: 4 });
    expect(conditionsOf(observedIn(requests.at(-1)!).network!.resource)).toEqual(['Ready=False', 'Synced=False']);
  });

  it('a perturbation that deletes a role forgets its resources; the function composes them anew', async () => {
    const { call, requests } = composing(() => ({ network: network() }));
    const roles: Adapter = { ...withCredentials, roles: { network: 'network' } };
    const scenario = scenarioOf('deleted', { then: [{ do: 'delete', role: 'network', steps: 1 }] });
    const trace = await simulate(call, roles, scenario, { maxSteps: 5 });
    expect(trace.error).toBeUndefined();
    const deletedAt = trace.perturbations[0]!.from;
    expect(Object.keys(observedIn(requests[deletedAt]!))).toEqual([]);
  });

  it('a Fatal result ends the simulation with the function\'s message', async () => {
    const { call } = composing(() => ({ network: network() }), { fatalAt: 1 });
    const trace = await simulate(call, withCredentials, scenarioOf(), { maxSteps: 5 });
    expect(trace.error).toBe('step 1: the function returned a Fatal result: cannot go on');
    expect(trace.steps).toHaveLength(1);
  });
});
