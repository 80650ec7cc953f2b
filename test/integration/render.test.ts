/**
 * The bundled providers against the bundled scenarios, through the real Python functions. The matrix
 * starts once for the file; the determinism check runs it a second time.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadProject, selectProject } from '../../src/config/load.js';
import type { Project } from '../../src/config/types.js';
import { runProject, type ProviderRun } from '../../src/pipeline/run.js';
import { FunctionProcess } from '../../src/functions/process.js';
import { buildRequest } from '../../src/world/protocol.js';
import { simulate } from '../../src/world/simulate.js';
import { buildXR } from '../../src/world/xr.js';
import type { RunFunctionRequest } from '@crossplane-org/function-sdk-typescript';
import type { StepRecord, Trace } from '../../src/world/trace.js';
import { REPO } from '../helpers/project.js';

/** Every bundled provider: a folder of providers/ with an adapter. */
const PROVIDERS = readdirSync(path.join(REPO, 'providers'))
  .filter((name) => existsSync(path.join(REPO, 'providers', name, 'provider.yaml')))
  .sort();
const SCENARIOS = ['cluster-lost', 'cluster-regresses', 'converge', 'credentials-broken', 'credentials-lost', 'credentials-missing', 'custom-credentials', 'fact-withdrawn', 'never-ready', 'two-pools'];

let project: Project;
let result: Rendered;

interface Rendered {
  providers: ProviderRun[];
  traces: Trace[];
  calls: number;
}

/** The pipeline with neither replays nor ablations: each cell's main render only. */
async function renderAll(p: Project): Promise<Rendered> {
  const run = await runProject(p, { determinism: false, gating: false });
  return { providers: run.providers, traces: run.cells.map((cell) => cell.trace), calls: run.calls };
}

beforeAll(async () => {
  project = await loadProject(undefined, REPO, process.env);
  result = await renderAll(project);
});

function trace(provider: string, scenario: string): Trace {
  const found = result.traces.find((t) => t.provider === provider && t.scenario === scenario);
  expect(found, `${provider}/${scenario}`).toBeDefined();
  expect(found!.error, `${provider}/${scenario} failed`).toBeUndefined();
  return found!;
}

/**
 * Resources of provider-kubernetes and provider-helm live in the workload cluster, and a core object
 * (apiVersion without a group, e.g. Vultr's ConfigMap) is composed into the control plane directly;
 * everything else is the cloud's.
 */
function isCloudResource(resource: Record<string, unknown>): boolean {
  const apiVersion = String(resource.apiVersion);
  const group = apiVersion.split('/')[0]!;
  return apiVersion.includes('/') && group !== 'kubernetes.m.crossplane.io' && group !== 'helm.m.crossplane.io';
}

function readyMarks(step: StepRecord): Record<string, string> {
  return Object.fromEntries(Object.entries(step.resources).map(([key, r]) => [key, r.ready]));
}

describe('the real matrix', () => {
  it('renders every provider × scenario without an error', () => {
    expect(project.adapters.map((a) => a.name)).toEqual(PROVIDERS);
    expect(project.scenarios.map((s) => s.name)).toEqual(SCENARIOS);
    expect(result.providers.map((s) => [s.provider, s.error])).toEqual(PROVIDERS.map((p) => [p, undefined]));
    expect(result.traces.map((t) => `${t.provider}/${t.scenario}`)).toEqual(PROVIDERS.flatMap((p) => SCENARIOS.map((s) => `${p}/${s}`)));
    for (const t of result.traces) expect(t.error, `${t.provider}/${t.scenario}`).toBeUndefined();
    // Every step makes at least one call; repeated requests (shared scenario prefixes) are answered once.
    const stepCalls = result.traces.reduce((n, t) => n + t.steps.reduce((m, step) => m + step.calls, 0), 0);
    expect(result.calls).toBeGreaterThan(0);
    expect(result.calls).toBeLessThan(stepCalls);
  });

  it.each(PROVIDERS)('%s converges: the converged step has the XR Ready and every resource READY_TRUE', (provider) => {
    const t = trace(provider, 'converge');
    expect(t.converged).toEqual({ step: expect.any(Number), xrReady: true });
    const step = t.steps[t.converged!.step]!;
    expect(step.xrReady).toBe(true);
    const marks = readyMarks(step);
    expect(Object.keys(marks).length).toBeGreaterThan(5);
    for (const key of ['cluster', 'nodepool-gpu', 'provider-config-kubernetes', 'storage-class-rwx']) {
      expect(marks).toHaveProperty(key);
    }
    // The system pool is composed on its own, or inline in the cluster resource (AKS, Vultr).
    const inline = JSON.stringify(step.resources.cluster!.resource).includes('"modelplane.ai/pool":"system"');
    expect('nodepool-system' in marks || inline, 'a system pool').toBe(true);
    expect(Object.values(marks).every((mark) => mark === 'True'), JSON.stringify(marks)).toBe(true);
    // The XR as observed carries the derived Ready condition and the status the contract requires.
    const status = step.xr.status as { conditions: Array<{ type: string; status: string }>; secrets: Array<{ type: string }>; cache: unknown };
    expect(status.conditions).toContainEqual(expect.objectContaining({ type: 'Ready', status: 'True' }));
    expect(status.secrets.map((s) => s.type)).toContain('Kubeconfig');
    expect(status.cache).toEqual({ storageClassName: expect.any(String) });
    // Step 0 observed nothing, so nothing cloud-side could have been ready yet.
    expect(t.steps[0]!.xrReady).toBe(false);
  });

  it.each(PROVIDERS)('%s never-ready: the XR is never Ready and no cloud resource is marked ready', (provider) => {
    const t = trace(provider, 'never-ready');
    expect(t.converged).toEqual({ step: expect.any(Number), xrReady: false });
    let cloudResources = 0;
    for (const step of t.steps) {
      expect(step.xrReady, `step ${step.index}`).toBe(false);
      const condition = (step.xr.status as { conditions: Array<{ type: string; status: string }> }).conditions.find((c) => c.type === 'Ready');
      expect(condition?.status).toBe('False');
      for (const [key, { resource, ready }] of Object.entries(step.resources)) {
        if (!isCloudResource(resource)) continue;
        cloudResources += 1;
        expect([step.index, key, ready]).not.toEqual([step.index, key, 'True']);
      }
    }
    expect(cloudResources).toBeGreaterThan(0);
    expect(t.steps.at(-1)!.resources).toHaveProperty('cluster');
  });

  it('gke credentials-missing: waits with a Normal event and keeps asking for the ProviderConfig', () => {
    const t = trace('gke', 'credentials-missing');
    expect(t.steps.length).toBeGreaterThan(0);
    for (const step of t.steps) {
      expect(step.results).toContainEqual({ severity: 'Normal', message: 'Waiting for GCP ClusterProviderConfig default' });
      expect(step.requirements['gcp-provider-config']).toEqual({
        apiVersion: 'gcp.m.upbound.io/v1beta1',
        kind: 'ClusterProviderConfig',
        matchName: 'default',
      });
      // The world has no credentials, so the requirement is never satisfied.
      expect(step.satisfied).toEqual([]);
      expect(step.dropped).toEqual([]);
    }
  });

  it('gke with credentials present never says it is waiting', () => {
    const t = trace('gke', 'converge');
    for (const step of t.steps) {
      expect(step.results).toEqual([]);
      expect(step.satisfied).toEqual(['gcp-provider-config']);
    }
  });

  it("gke custom-credentials: the requirement names a namespaced ProviderConfig in the XR's namespace, and is satisfied", () => {
    const t = trace('gke', 'custom-credentials');
    expect(t.xr.namespace).toBe('ml-team');
    expect(t.converged?.xrReady).toBe(true);
    for (const step of t.steps) {
      expect(step.requirements['gcp-provider-config']).toEqual({
        apiVersion: 'gcp.m.upbound.io/v1beta1',
        kind: 'ProviderConfig',
        matchName: 'team-a',
        namespace: 'ml-team',
      });
      expect(step.satisfied).toContain('gcp-provider-config');
      expect(step.results).toEqual([]);
    }
  });

  it.each(PROVIDERS)('%s credentials-lost: removing the credentials drops nothing', (provider) => {
    const t = trace(provider, 'credentials-lost');
    expect(t.converged?.xrReady).toBe(true);
    expect(t.perturbations).toEqual([{ do: 'remove-credentials', from: t.converged!.step + 2, to: t.converged!.step + 4 }]);
    const before = Object.keys(t.steps[t.perturbations[0]!.from - 1]!.resources).sort();
    const after = t.steps.slice(t.perturbations[0]!.from);
    expect(after).toHaveLength(3);
    for (const step of t.steps) expect(step.dropped, `step ${step.index}`).toEqual([]);
    for (const step of after) {
      expect(step.phase).toBe('remove-credentials');
      expect(Object.keys(step.resources).sort()).toEqual(before);
      expect(Object.keys(step.names).sort()).toEqual(before);
    }
  });

  it('gke credentials-lost: the credentials really are gone after the perturbation', () => {
    const t = trace('gke', 'credentials-lost');
    const from = t.perturbations[0]!.from;
    expect(t.steps[from - 1]!.satisfied).toEqual(['gcp-provider-config']);
    for (const step of t.steps.slice(from)) {
      expect(step.satisfied).toEqual([]);
      expect(step.results).toContainEqual({ severity: 'Normal', message: 'Waiting for GCP ClusterProviderConfig default' });
    }
  });

  it('keeps composed names stable from step to step', () => {
    for (const t of result.traces) {
      const first = new Map<string, string>();
      for (const step of t.steps) {
        for (const [key, name] of Object.entries(step.names)) {
          if (!first.has(key)) first.set(key, name);
          expect(name, `${t.provider}/${t.scenario} ${key}`).toBe(first.get(key));
        }
      }
    }
  });

  it('gives byte-identical traces when run again', async () => {
    const again = await renderAll(project);
    expect(again.traces).toHaveLength(result.traces.length);
    for (let i = 0; i < result.traces.length; i += 1) {
      const a = result.traces[i]!;
      const b = again.traces[i]!;
      expect(JSON.stringify(b), `${a.provider}/${a.scenario}`).toBe(JSON.stringify(a));
    }
  });
});

describe('requests as they were sent', () => {
  it('remembers requirements as Crossplane does: gke asks for its ProviderConfig once, then each step takes one call', () => {
    const t = trace('gke', 'converge');
    expect(t.steps[0]!.calls).toBe(2);
    for (const step of t.steps.slice(1)) expect(step.calls, `step ${step.index}`).toBe(1);
    // eks requires nothing, so every step is one call.
    for (const step of trace('eks', 'converge').steps) expect(step.calls).toBe(1);
  });

  it('keeps a recorded request unchanged when a later perturbation changes the world', async () => {
    const recorded = new Map<number, RunFunctionRequest>();
    const one = selectProject(project, ['gke'], ['cluster-regresses']);
    const adapter = one.adapters[0]!;
    const scenario = one.scenarios[0]!;
    const fn = await FunctionProcess.start(adapter, { ...one.config.timeouts, probe: buildRequest(buildXR(adapter, scenario), new Map(), undefined), env: process.env });
    let t: Trace;
    try {
      t = await simulate((request) => fn.call(request), adapter, scenario, { maxSteps: one.config.maxSteps, onStep: (step, request) => recorded.set(step, request) });
    } finally {
      await fn.stop();
    }
    const from = t.perturbations[0]!.from;
    const clusterReady = (step: number) => {
      const cluster = recorded.get(step)!.observed!.resources.cluster!.resource as { status: { conditions: Array<{ type: string; status: string }> } };
      return cluster.status.conditions.find((c) => c.type === 'Ready')!.status;
    };
    // The step before the perturbation observed the cluster Ready; the perturbation made it unready
    // for the steps after, and must not have rewritten what was sent before.
    expect(clusterReady(from - 1)).toBe('True');
    expect(clusterReady(from + 1)).toBe('False');
  });
});

type Conditions = { status?: { conditions?: Array<{ type: string; status: string }> } };
const conditionOf = (resource: unknown, type: string) => (resource as Conditions).status?.conditions?.find((c) => c.type === type)?.status;

/** The requests one cell sent, by step: what the function observed after each perturbation. */
async function sent(provider: string, scenario: string): Promise<{ t: Trace; requests: Map<number, RunFunctionRequest> }> {
  const requests = new Map<number, RunFunctionRequest>();
  const one = selectProject(project, [provider], [scenario]);
  const adapter = one.adapters[0]!;
  const cell = one.scenarios[0]!;
  const fn = await FunctionProcess.start(adapter, { ...one.config.timeouts, probe: buildRequest(buildXR(adapter, cell), new Map(), undefined), env: process.env });
  let t: Trace;
  try {
    t = await simulate((request) => fn.call(request), adapter, cell, { maxSteps: one.config.maxSteps, onStep: (step, request) => requests.set(step, request) });
  } finally {
    await fn.stop();
  }
  expect(t.error).toBeUndefined();
  return { t, requests };
}

describe('perturbations as the world applies them', () => {
  it.each(PROVIDERS.flatMap((p) => ['cluster-lost', 'credentials-broken', 'fact-withdrawn'].map((s) => [p, s])))('%s %s: the bundled function drops nothing and the XR ends Ready', (provider, scenario) => {
    const t = trace(provider, scenario);
    expect(t.perturbations).toHaveLength(1);
    for (const step of t.steps) expect(step.dropped, `step ${step.index}`).toEqual([]);
    expect(t.steps.at(-1)!.xrReady).toBe(true);
  });

  it('gke credentials-broken: the requirement still finds the ProviderConfig, with its new content; cloud resources keep their state with Synced False', async () => {
    const { t, requests } = await sent('gke', 'credentials-broken');
    const from = t.perturbations[0]!.from;
    const found = (step: number) => requests.get(step)!.requiredResources['gcp-provider-config']!.items.map((item) => item.resource as { spec: { credentials: Record<string, unknown> } });
    expect(found(from - 1)[0]!.spec.credentials).toMatchObject({ source: 'Secret', secretRef: expect.any(Object) });
    expect(found(from)).toHaveLength(1);
    expect(found(from)[0]!.spec.credentials).toEqual({ source: 'InjectedIdentity' });
    for (const step of t.steps.slice(from)) expect(step.satisfied).toEqual(['gcp-provider-config']);
    const network = (step: number) => requests.get(step)!.observed!.resources.network!.resource;
    expect([conditionOf(network(from - 1), 'Ready'), conditionOf(network(from - 1), 'Synced')]).toEqual(['True', 'True']);
    expect([conditionOf(network(from + 1), 'Ready'), conditionOf(network(from + 1), 'Synced')]).toEqual(['True', 'False']);
    // The Kubernetes ProviderConfig is not reconciled through the cloud credentials: untouched.
    expect(requests.get(from + 1)!.observed!.resources['provider-config-kubernetes']!.resource).toEqual(requests.get(from - 1)!.observed!.resources['provider-config-kubernetes']!.resource);
  });

  it('gke fact-withdrawn: the network loses its external name and keeps its conditions; the StorageClass built from it stays', async () => {
    const { t, requests } = await sent('gke', 'fact-withdrawn');
    const from = t.perturbations[0]!.from;
    const network = (step: number) => requests.get(step)!.observed!.resources.network!.resource as { metadata: { annotations: Record<string, string> }; status: unknown };
    expect(network(from - 1).metadata.annotations).toHaveProperty(['crossplane.io/external-name']);
    for (const step of [from, from + 1, from + 2]) {
      expect(network(step).metadata.annotations, `step ${step}`).not.toHaveProperty(['crossplane.io/external-name']);
      expect(network(step).status).toEqual(network(from - 1).status);
    }
    for (const step of t.steps.slice(from)) expect(step.resources).toHaveProperty(['storage-class-rwx']);
  });

  it('nebius cluster-lost: the function observes no cluster, keeps its node pools, and composes the cluster again', async () => {
    const { t, requests } = await sent('nebius', 'cluster-lost');
    const from = t.perturbations[0]!.from;
    expect(Object.keys(requests.get(from - 1)!.observed!.resources)).toContain('cluster');
    expect(Object.keys(requests.get(from)!.observed!.resources)).not.toContain('cluster');
    expect(Object.keys(requests.get(from)!.observed!.resources)).toEqual(expect.arrayContaining(['nodepool-gpu', 'nodepool-system']));
    expect(t.steps[from]!.resources).toHaveProperty(['nodepool-gpu']);
    expect(t.steps[from]!.resources.cluster!.ready).not.toBe('True'); // a new cluster is not Ready yet
    expect(Object.keys(requests.get(from + 1)!.observed!.resources)).toContain('cluster');
  });
});
