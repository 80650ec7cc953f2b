/** The wire boundary of the world: the request drift sends, and a response read back as plain data. */
import { Capability, Ready, RunFunctionRequest, RunFunctionResponse, Severity } from '@crossplane-org/function-sdk-typescript';
import { describe, expect, it } from 'vitest';
import { materialize } from '../../src/world/materialize.js';
import * as protocol from '../../src/world/protocol.js';
import { buildRequest, readResponse } from '../../src/world/protocol.js';

const xr = { apiVersion: 'example.org/v1', kind: 'Cluster', metadata: { name: 'demo', namespace: 'ml-team', uid: 'u' } };

describe('buildRequest', () => {
  it('sends the XR and the observed resources, an empty desired state, and the required resources', () => {
    const network = { apiVersion: 'example.org/v1', kind: 'Network', metadata: { name: 'demo-net' } };
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'ml-team' } };
    const request = buildRequest(xr, new Map([['network', network]]), { kubeconfig: [secret], nothing: [] });
    expect(request.meta?.capabilities).toEqual([
      Capability.CAPABILITY_CAPABILITIES,
      Capability.CAPABILITY_REQUIRED_RESOURCES,
      Capability.CAPABILITY_CREDENTIALS,
      Capability.CAPABILITY_CONDITIONS,
    ]);
    expect(request.observed?.composite?.resource).toEqual(xr);
    expect(Object.keys(request.observed?.resources ?? {})).toEqual(['network']);
    expect(request.observed?.resources.network?.resource).toEqual(network);
    expect(request.desired).toEqual({ resources: {}, composite: undefined });
    expect(request.requiredResources.kubeconfig?.items.map((item) => item.resource)).toEqual([secret]);
    // A requirement that matches nothing arrives as present with zero items, as Crossplane sends it.
    expect(request.requiredResources.nothing).toEqual({ items: [] });
  });

  it('sends no required resources on a first call', () => {
    expect(buildRequest(xr, new Map(), undefined).requiredResources).toEqual({});
  });

  it("builds the whole message, as the function SDK's fromPartial fills it, with the SDK's enum numbers", () => {
    const request = buildRequest(xr, new Map([['network', { kind: 'Network' }]]), { kubeconfig: [xr], nothing: [] });
    // Every field present, undefined ones included: toStrictEqual tells a missing key from an undefined one.
    expect(request).toStrictEqual(RunFunctionRequest.fromPartial(request));
    expect(buildRequest(xr, new Map(), undefined)).toStrictEqual(RunFunctionRequest.fromPartial(buildRequest(xr, new Map(), undefined)));
    for (const [name, value] of Object.entries(protocol.Ready)) expect(Ready[name as keyof typeof Ready]).toBe(value);
    for (const [name, value] of Object.entries(protocol.ProtoSeverity)) expect(Severity[name as keyof typeof Severity]).toBe(value);
    for (const [name, value] of Object.entries(protocol.Capability)) expect(Capability[name as keyof typeof Capability]).toBe(value);
  });
});

describe('readResponse', () => {
  it('reads requirements, status, readiness and results as plain data in a stable order', () => {
    const response = RunFunctionResponse.fromPartial({
      requirements: {
        resources: {
          zeta: { apiVersion: 'v1', kind: 'Secret', matchLabels: { labels: { z: '1', a: '2' } }, namespace: 'ml-team' },
          alpha: { apiVersion: 'example.org/v1', kind: 'ClusterProviderConfig', matchName: 'default' },
        },
      },
      desired: {
        composite: { resource: { status: { zone: 'b', cache: { storageClassName: 'rwx' } } }, ready: Ready.READY_FALSE },
        resources: {
          pool: { resource: { kind: 'NodePool', apiVersion: 'example.org/v1' }, ready: Ready.READY_UNSPECIFIED },
          cluster: { resource: { kind: 'Cluster', apiVersion: 'example.org/v1' }, ready: Ready.READY_TRUE },
        },
      },
      results: [
        { severity: Severity.SEVERITY_NORMAL, message: 'Waiting for credentials', reason: 'Waiting' },
        { severity: Severity.SEVERITY_UNSPECIFIED, message: 'odd' },
      ],
    });
    const answer = readResponse(response);
    expect(answer.requirements).toEqual({
      alpha: { apiVersion: 'example.org/v1', kind: 'ClusterProviderConfig', matchName: 'default' },
      zeta: { apiVersion: 'v1', kind: 'Secret', matchLabels: { a: '2', z: '1' }, namespace: 'ml-team' },
    });
    expect(Object.keys(answer.requirements)).toEqual(['alpha', 'zeta']);
    expect(Object.keys(answer.requirements.zeta!.matchLabels!)).toEqual(['a', 'z']);
    expect(Object.keys(answer.resources)).toEqual(['cluster', 'pool']);
    expect(answer.resources.cluster).toEqual({ resource: { apiVersion: 'example.org/v1', kind: 'Cluster' }, ready: 'True' });
    expect(answer.resources.pool!.ready).toBe('Unspecified');
    expect(Object.keys(answer.resources.cluster!.resource)).toEqual(['apiVersion', 'kind']);
    expect(answer.status).toEqual({ cache: { storageClassName: 'rwx' }, zone: 'b' });
    expect(Object.keys(answer.status)).toEqual(['cache', 'zone']);
    expect(answer.compositeReady).toBe('False');
    // Crossplane treats an unknown severity as a warning.
    expect(answer.results).toEqual([
      { severity: 'Normal', message: 'Waiting for credentials', reason: 'Waiting' },
      { severity: 'Warning', message: 'odd' },
    ]);
    expect(readResponse(response)).toBe(answer);
  });

  it('reads an empty response as nothing asked, nothing composed, readiness unspecified', () => {
    expect(readResponse(RunFunctionResponse.fromPartial({}))).toEqual({ requirements: {}, status: {}, compositeReady: 'Unspecified', resources: {}, results: [] });
  });
});

describe('materialize: what carries conditions', () => {
  it('observes ProviderConfigs without conditions, as a real control plane does, and keeps a name the function chose', () => {
    for (const kind of ['ProviderConfig', 'ClusterProviderConfig']) {
      const observed = materialize({ xr, key: 'pc', desired: { apiVersion: 'example.org/v1', kind, metadata: { name: 'chosen' } }, existingName: undefined, ready: true, facts: [] });
      expect(observed.status).toBeUndefined();
      expect((observed.metadata as { name: string }).name).toBe('chosen');
    }
    const object = materialize({ xr, key: 'obj', desired: { apiVersion: 'example.org/v1', kind: 'Object', metadata: { name: '' } }, existingName: undefined, ready: false, facts: [] });
    expect((object.metadata as { name: string }).name).toMatch(/^demo-[0-9a-f]{12}$/);
    expect(object.status).toMatchObject({ conditions: [{ type: 'Ready', status: 'False' }, { type: 'Synced', status: 'True' }] });
  });
});
