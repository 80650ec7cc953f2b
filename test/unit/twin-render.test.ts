/**
 * Derived name suffixes found by twin-rendering each cell's converged request: a function that
 * composes its named resources only from its third step (index 2) still has them templated to
 * `{hash}`, at one extra call per distinct converged request.
 */
import { createHash } from 'node:crypto';
import { Ready, RunFunctionResponse, type RunFunctionRequest } from '@crossplane-org/function-sdk-typescript';
import { describe, expect, it } from 'vitest';
import type { Adapter } from '../../src/config/types.js';
import { bytesKey, encodeRequest } from '../../src/functions/encode.js';
import { runCell, type ProviderSession } from '../../src/pipeline/cell.js';
import { derivedFinder, twinRequest } from '../../src/pipeline/twinRender.js';
import type { Caller } from '../../src/world/simulate.js';
import { readResponse } from '../../src/world/protocol.js';
import { scenarioOf } from '../helpers/fourth.js';

const adapter: Adapter = {
  name: 'late-names',
  file: '/nowhere/provider.yaml',
  dir: '/nowhere',
  function: { command: [], cwd: '/nowhere', env: {} },
  xr: { apiVersion: 'example.org/v1', kind: 'Cluster', spec: {}, gpus: {}, ignore: { 'pools[].name': 'reads no XR', 'pools[].nodeCount': 'reads no XR' } },
  world: { credentials: [{ apiVersion: 'example.org/v1', kind: 'ClusterProviderConfig', metadata: { name: 'default' } }], observe: [], brokenCredentials: {} },
  roles: {},
  inline: {},
  values: { project: 'demo-project' },
};

const suffix = (name: string) => createHash('sha256').update(name).digest('hex').slice(0, 5);
const cloud = (kind: string, spec: Record<string, unknown> = {}) => ({ apiVersion: 'example.org/v1', kind, spec: { providerConfigRef: { kind: 'ClusterProviderConfig', name: 'default' }, ...spec } });

/**
 * Step 0 composes only its ProviderConfig-like network, step 1 a subnet, and only step 2, once both
 * are observed, the cluster whose kubeconfig Secret carries a suffix derived from the XR's name.
 */
function lateNames(): { call: Caller; sent: RunFunctionRequest[] } {
  const sent: RunFunctionRequest[] = [];
  const call: Caller = async (request) => {
    sent.push(request);
    const xr = request.observed!.composite!.resource as { metadata: { name: string } };
    const name = xr.metadata.name;
    const observed = Object.keys(request.observed?.resources ?? {});
    const desired: Record<string, Record<string, unknown>> = { network: cloud('Network', { project: 'demo-project' }) };
    if (observed.includes('network')) desired.subnet = cloud('Subnet');
    if (observed.includes('subnet')) desired.cluster = cloud('Cluster', { writeConnectionSecretToRef: { namespace: 'ml-team', name: `${name}-kubeconfig-${suffix(name)}` } });
    const resources = Object.fromEntries(Object.entries(desired).map(([key, resource]) => [key, { resource, ready: Ready.READY_TRUE }]));
    return RunFunctionResponse.fromPartial({ desired: { resources } });
  };
  return { call, sent };
}

/** The provider's memo as run.ts builds it: a request already answered is not sent again. */
function memo(call: Caller): Caller {
  const answers = new Map<string, Promise<RunFunctionResponse>>();
  return (request) => {
    const key = bytesKey(encodeRequest(request));
    if (!answers.has(key)) answers.set(key, call(request));
    return answers.get(key)!;
  };
}

const options = { maxSteps: 8, determinism: false, gating: false };

describe('twin render of the converged request', () => {
  it('templates a suffix the function derives only from step 2, and costs one call for the twin', async () => {
    const { call, sent } = lateNames();
    const cached = memo(call);
    const session: ProviderSession = { adapter, call: cached, replay: cached, derived: derivedFinder(cached, adapter) };
    const cell = await runCell(session, scenarioOf(), options);
    expect(cell.trace.steps[cell.trace.converged!.step]!.resources.cluster).toBeDefined();
    expect(cell.trace.steps.findIndex((step) => 'cluster' in step.resources)).toBe(2);
    expect(cell.skeleton.resources.cluster!.writes).toBe('{namespace}/{xr}-kubeconfig-{hash}');
    expect(JSON.stringify(cell.skeleton)).not.toContain(suffix('demo'));
    // The main render's calls, plus exactly one under the twin name.
    const twins = sent.filter((request) => (request.observed!.composite!.resource as { metadata: { name: string } }).metadata.name !== 'demo');
    expect(twins).toHaveLength(1);
  });

  it('without the twin render the suffix stays literal: what the goldens showed before', async () => {
    const { call } = lateNames();
    const cell = await runCell({ adapter, call, replay: call }, scenarioOf(), options);
    expect(cell.skeleton.resources.cluster!.writes).toBe(`{namespace}/{xr}-kubeconfig-${suffix('demo')}`);
  });

  it('two scenarios that converge on the same request share one twin call', async () => {
    const { call, sent } = lateNames();
    const cached = memo(call);
    const session: ProviderSession = { adapter, call: cached, replay: cached, derived: derivedFinder(cached, adapter) };
    const [first, second] = await Promise.all([runCell(session, scenarioOf('converge'), options), runCell(session, scenarioOf('again'), options)]);
    expect(first!.skeleton.resources.cluster!.writes).toBe('{namespace}/{xr}-kubeconfig-{hash}');
    expect(second!.skeleton.resources.cluster!.writes).toBe('{namespace}/{xr}-kubeconfig-{hash}');
    expect(sent.filter((request) => (request.observed!.composite!.resource as { metadata: { name: string } }).metadata.name !== 'demo')).toHaveLength(1);
  });
});

describe('derivedFinder', () => {
  it('rewrites a converged request into its twin once for every cell that converged on the same bytes', async () => {
    const { call, sent } = lateNames();
    const cell = await runCell({ adapter, call, replay: call }, scenarioOf(), options);
    const request = sent.at(-1)!;
    const answer = readResponse(await call(request));
    // No memo in front of the function: every twin the finder builds reaches it.
    const { call: twinCall, sent: twins } = lateNames();
    const find = derivedFinder(twinCall, adapter);
    const [first, again] = await Promise.all([find(cell.trace, { request, answer }), find(cell.trace, { request: structuredClone(request), answer })]);
    expect(twins).toHaveLength(1);
    expect(again).toBe(first);
    expect(first).toContain(suffix('demo'));
  });
});

describe('twinRequest', () => {
  it('renames the XR and its uid everywhere, observed state included, and keeps the adapter values and keys', async () => {
    const { call, sent } = lateNames();
    await runCell({ adapter, call, replay: call }, scenarioOf(), options);
    const converged = sent.at(-1)!;
    const xr = converged.observed!.composite!.resource as { metadata: { name: string; uid: string } };
    const twin = twinRequest(converged, adapter.values, { name: 'demo', uid: xr.metadata.uid }, { name: 'drift-twin', uid: 'twin-uid' });
    const text = JSON.stringify(twin);
    expect(text).not.toMatch(/(?<![A-Za-z0-9])demo(?![A-Za-z0-9-])/);
    expect(text).not.toContain(xr.metadata.uid);
    expect(text).toContain('"demo-project"');
    expect(text).toContain(`drift-twin-kubeconfig-${suffix('demo')}`);
    expect(Object.keys(twin.observed!.resources)).toEqual(Object.keys(converged.observed!.resources));
    // The request it came from is untouched.
    expect(JSON.stringify(converged)).toContain(`demo-kubeconfig-${suffix('demo')}`);
  });
});
