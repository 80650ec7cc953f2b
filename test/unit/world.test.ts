/**
 * What each perturbation does to the simulated world, with a function written here in TypeScript:
 * no processes, every request it receives recorded.
 */
import { Ready, RunFunctionResponse, type RunFunctionRequest } from '@crossplane-org/function-sdk-typescript';
import { describe, expect, it } from 'vitest';
import type { Adapter, Perturbation, Scenario } from '../../src/config/types.js';
import type { JsonObject } from '../../src/util/objects.js';
import { simulate } from '../../src/world/simulate.js';

const CREDENTIALS = { kind: 'ClusterProviderConfig', name: 'default' };
const PROVIDER_CONFIG = { apiVersion: 'cloud.example.io/v1beta1', kind: 'ClusterProviderConfig', metadata: { name: 'default' }, spec: { credentials: { source: 'Secret', secretRef: { name: 'creds', key: 'k' } } } };

const adapter: Adapter = {
  name: 'fake',
  file: 'providers/fake/provider.yaml',
  dir: 'providers/fake',
  function: { command: ['true'], cwd: '.', env: {} },
  xr: { apiVersion: 'example.io/v1', kind: 'XCluster', spec: {}, gpus: {}, ignore: {} },
  world: {
    credentials: [PROVIDER_CONFIG],
    observe: [{ kind: 'Network', fact: 'external-name', set: { 'metadata.annotations.crossplane\\.io/external-name': 'net-{name}' } }],
    brokenCredentials: { spec: { credentials: { source: 'Environment', secretRef: null } } },
  },
  roles: {},
  inline: {},
  values: {},
};

function scenarioWith(then: Perturbation[]): Scenario {
  return { name: 's', file: 's.yaml', description: 'd', xr: { name: 'demo', namespace: 'ml-team', nodePools: [] }, world: { credentials: 'present', ready: 'all' }, then, ablate: false };
}

const cloud = (kind: string) => ({ apiVersion: 'compute.example.io/v1', kind, spec: { forProvider: {}, providerConfigRef: CREDENTIALS } });

/**
 * A function that requires its ProviderConfig, always composes a network and a cluster, and a
 * `late` cloud resource only once it has seen `lateAfter` requests; it marks what is observed Ready.
 */
function fakeFunction(lateAfter = Infinity) {
  const requests: RunFunctionRequest[] = [];
  const call = async (request: RunFunctionRequest) => {
    requests.push(request);
    const observed = request.observed?.resources ?? {};
    const keys = ['network', 'cluster', ...(requests.length > lateAfter ? ['late'] : [])];
    const kinds: Record<string, string> = { network: 'Network', cluster: 'Cluster', late: 'Bucket' };
    const ready = (key: string) => {
      const conditions = ((observed[key]?.resource as JsonObject | undefined)?.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? [];
      return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
    };
    return RunFunctionResponse.fromPartial({
      desired: { resources: Object.fromEntries(keys.map((key) => [key, { resource: cloud(kinds[key]!), ready: ready(key) ? Ready.READY_TRUE : Ready.READY_UNSPECIFIED }])) },
      requirements: { resources: { pc: { apiVersion: PROVIDER_CONFIG.apiVersion, kind: 'ClusterProviderConfig', matchName: 'default' } } },
    });
  };
  return { call, requests };
}

/** Simulates with the fake function; `sent[step]` is each step's final request, as the world built it. */
async function run(then: Perturbation[], lateAfter?: number) {
  const { call } = fakeFunction(lateAfter);
  const sent: RunFunctionRequest[] = [];
  const trace = await simulate(call, adapter, scenarioWith(then), { maxSteps: 8, onStep: (step, request) => (sent[step] = request) });
  expect(trace.error).toBeUndefined();
  return { trace, sent };
}

const observedOf = (request: RunFunctionRequest, key: string) => request.observed?.resources[key]?.resource as JsonObject | undefined;
const conditions = (resource: JsonObject | undefined) =>
  Object.fromEntries((((resource?.status as JsonObject | undefined)?.conditions ?? []) as Array<{ type: string; status: string }>).map((c) => [c.type, c.status]));
const annotations = (resource: JsonObject | undefined) => ((resource?.metadata as JsonObject | undefined)?.annotations ?? {}) as Record<string, string>;

describe('break-credentials', () => {
  it("keeps the ProviderConfig findable with the adapter's unusable content; existing cloud resources keep their state with Synced False", async () => {
    const { call, requests } = fakeFunction();
    const trace = await simulate(call, adapter, scenarioWith([{ do: 'break-credentials', steps: 2 }]), { maxSteps: 8 });
    expect(trace.error).toBeUndefined();
    const last = requests.at(-1)!;
    expect(last.requiredResources.pc!.items.map((item) => item.resource)).toEqual([
      { ...PROVIDER_CONFIG, spec: { credentials: { source: 'Environment' } } },
    ]);
    expect(trace.steps.at(-1)!.satisfied).toEqual(['pc']);
    expect(conditions(observedOf(last, 'network'))).toEqual({ Ready: 'True', Synced: 'False' });
    expect(annotations(observedOf(last, 'network'))).toHaveProperty(['crossplane.io/external-name']);
  });

  it('never creates a cloud resource first composed after the credentials broke: never Ready, no facts', async () => {
    const { call, requests } = fakeFunction(4); // `late` from the fifth request: after convergence
    const trace = await simulate(call, adapter, scenarioWith([{ do: 'break-credentials', steps: 3 }]), { maxSteps: 8 });
    expect(trace.converged).not.toBeNull();
    const late = observedOf(requests.at(-1)!, 'late');
    expect(conditions(late)).toEqual({ Ready: 'False', Synced: 'False' });
    expect(trace.steps.at(-1)!.resources.late!.ready).toBe('Unspecified');
  });

  it('restore-credentials brings back the usable content, and cloud resources sync again', async () => {
    const { call, requests } = fakeFunction();
    await simulate(call, adapter, scenarioWith([{ do: 'break-credentials', steps: 2 }, { do: 'restore-credentials', steps: 2 }]), { maxSteps: 8 });
    const last = requests.at(-1)!;
    expect(last.requiredResources.pc!.items.map((item) => item.resource)).toEqual([PROVIDER_CONFIG]);
    expect(conditions(observedOf(last, 'network'))).toEqual({ Ready: 'True', Synced: 'True' });
  });
});

describe('withdraw-fact', () => {
  it('removes the fact from the resources that carry it and never publishes it again; the resource and its conditions stay', async () => {
    const { trace, sent } = await run([{ do: 'withdraw-fact', fact: 'external-name', steps: 3 }]);
    const from = trace.perturbations[0]!.from;
    expect(annotations(observedOf(sent[from - 1]!, 'network'))['crossplane.io/external-name']).toMatch(/^net-demo-/);
    expect(sent.slice(from)).toHaveLength(3);
    for (const request of sent.slice(from)) {
      const network = observedOf(request, 'network');
      expect(annotations(network)).not.toHaveProperty(['crossplane.io/external-name']);
      expect(conditions(network)).toEqual({ Ready: 'True', Synced: 'True' });
    }
    expect(trace.perturbations[0]).toMatchObject({ do: 'withdraw-fact', fact: 'external-name' });
  });

  it('`every` withdraws each fact the adapter declares, whatever its name: a status field a gate reads as well as the external name', async () => {
    const hostname = { ...adapter, world: { ...adapter.world, observe: [...adapter.world.observe, { kind: 'Network', fact: 'hostname', set: { 'status.atProvider.hostname': '{name}.example.net' } }] } };
    const { call } = fakeFunction();
    const sent: RunFunctionRequest[] = [];
    const trace = await simulate(call, hostname, scenarioWith([{ do: 'withdraw-fact', fact: 'every', steps: 2 }]), { maxSteps: 8, onStep: (step, request) => (sent[step] = request) });
    const from = trace.perturbations[0]!.from;
    const before = observedOf(sent[from - 1]!, 'network');
    const hostnameOf = (resource: JsonObject | undefined) => ((resource?.status as JsonObject | undefined)?.atProvider as JsonObject | undefined)?.hostname;
    expect(hostnameOf(before)).toMatch(/\.example\.net$/);
    for (const request of sent.slice(from)) {
      const network = observedOf(request, 'network');
      expect(annotations(network)).not.toHaveProperty(['crossplane.io/external-name']);
      expect(hostnameOf(network)).toBeUndefined();
      expect(conditions(network)).toEqual({ Ready: 'True', Synced: 'True' });
    }
    // Named alone, a fact leaves the others in place.
    const { call: again } = fakeFunction();
    const named: RunFunctionRequest[] = [];
    await simulate(again, hostname, scenarioWith([{ do: 'withdraw-fact', fact: 'external-name', steps: 2 }]), { maxSteps: 8, onStep: (step, request) => (named[step] = request) });
    expect(hostnameOf(observedOf(named.at(-1)!, 'network'))).toMatch(/\.example\.net$/);
  });

  it('narrowed to a role, leaves other roles alone', async () => {
    const { sent } = await run([{ do: 'withdraw-fact', role: 'network', fact: 'external-name', steps: 2 }, { do: 'restore-credentials', steps: 1 }]);
    expect(annotations(observedOf(sent.at(-1)!, 'network'))).not.toHaveProperty(['crossplane.io/external-name']);
    const other = await run([{ do: 'withdraw-fact', role: 'cluster', fact: 'external-name', steps: 2 }]);
    expect(annotations(observedOf(other.sent.at(-1)!, 'network'))).toHaveProperty(['crossplane.io/external-name']);
  });
});

describe('delete', () => {
  it('takes the resource playing the role out of observed state; the function composes it anew', async () => {
    const { trace, sent } = await run([{ do: 'delete', role: 'cluster', steps: 2 }]);
    const from = trace.perturbations[0]!.from;
    expect(Object.keys(sent[from - 1]!.observed!.resources).sort()).toEqual(['cluster', 'network']);
    expect(Object.keys(sent[from]!.observed!.resources)).toEqual(['network']);
    expect(trace.steps[from]!.resources.cluster!.ready).toBe('Unspecified');
    expect(Object.keys(sent[from + 1]!.observed!.resources).sort()).toEqual(['cluster', 'network']);
  });
});
