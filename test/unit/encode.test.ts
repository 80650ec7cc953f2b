/** Request keys and wire bytes built from cached parts must mean exactly what the plain encoder means. */
import { RunFunctionRequest } from '@crossplane-org/function-sdk-typescript';
import { describe, expect, it } from 'vitest';
import { bytesKey, encodeRequest } from '../../src/functions/encode.js';
import { buildRequest } from '../../src/world/protocol.js';
import type { K8sObject } from '../../src/config/types.js';
import type { JsonObject } from '../../src/util/objects.js';

const xr: K8sObject = { apiVersion: 'x.modelplane.ai/v1', kind: 'GKECluster', metadata: { name: 'demo', namespace: 'ml-team', uid: 'u1' }, spec: { region: 'r' } };
const network: JsonObject = { apiVersion: 'compute/v1', kind: 'Network', metadata: { name: 'n' }, spec: { forProvider: { autoCreateSubnetworks: false } } };
const cluster: JsonObject = { apiVersion: 'container/v1', kind: 'Cluster', metadata: { name: 'c' }, status: { conditions: [{ type: 'Ready', status: 'True' }] } };
const credentials: K8sObject = { apiVersion: 'gcp/v1', kind: 'ClusterProviderConfig', metadata: { name: 'default' } };

const observed = (entries: Array<[string, JsonObject]>) => new Map(entries);

describe('encodeRequest', () => {
  it('decodes to the same request the generated encoder writes', () => {
    const requests = [
      buildRequest(xr, observed([]), undefined),
      buildRequest(xr, observed([['network', network], ['cluster', cluster]]), undefined),
      buildRequest(xr, observed([['network', network]]), { pc: [credentials] }),
    ];
    for (const request of requests) {
      const plain = RunFunctionRequest.decode(RunFunctionRequest.encode(request).finish());
      expect(RunFunctionRequest.decode(encodeRequest(request))).toEqual(plain);
      // An equal request, another object: its entries come from the cache, and its bytes are the same.
      expect(encodeRequest({ ...request })).toEqual(encodeRequest(request));
    }
  });

  it('writes a request once: the same object gives back the same bytes', () => {
    const request = buildRequest(xr, observed([['network', network]]), undefined);
    const bytes = encodeRequest(request);
    expect(encodeRequest(request)).toBe(bytes);
    expect(encodeRequest({ ...request })).not.toBe(bytes);
  });

  it('does not reuse an entry under another key', () => {
    const request = buildRequest(xr, observed([['a', network], ['b', network]]), undefined);
    const decoded = RunFunctionRequest.decode(encodeRequest(request));
    expect(Object.keys(decoded.observed!.resources)).toEqual(['a', 'b']);
  });
});

/** The memo's key for a request: its wire bytes. */
const requestKey = (request: RunFunctionRequest) => bytesKey(encodeRequest(request));

describe('the memo key', () => {
  it('is equal for equal content, whatever the objects', () => {
    const a = buildRequest(xr, observed([['network', network]]), undefined);
    const b = buildRequest(structuredClone(xr), observed([['network', structuredClone(network)]]), undefined);
    expect(requestKey(a)).toBe(requestKey(b));
  });

  it('differs when anything differs: a resource, its key, the XR, or what was required', () => {
    const base = requestKey(buildRequest(xr, observed([['network', network]]), undefined));
    const changed = [
      buildRequest(xr, observed([['network', { ...network, spec: {} }]]), undefined),
      buildRequest(xr, observed([['net', network]]), undefined),
      buildRequest({ ...xr, status: { ready: true } }, observed([['network', network]]), undefined),
      buildRequest(xr, observed([['network', network]]), { pc: [credentials] }),
      buildRequest(xr, observed([['network', network]]), { pc: [] }),
    ];
    for (const request of changed) expect(requestKey(request)).not.toBe(base);
  });
});
