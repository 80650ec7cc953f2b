/** Selections are wiring: which composed resource a resource selects or references (src/skeleton/selects.ts). */
import { describe, expect, it } from 'vitest';
import { selectsOf } from '../../src/skeleton/selects.js';
import type { JsonObject } from '../../src/util/objects.js';

const body = (apiVersion: string, kind: string, spec: JsonObject = {}, metadata: JsonObject = {}): JsonObject => ({ apiVersion, kind, metadata, spec });

describe('selectsOf', () => {
  const bodies: Record<string, JsonObject> = {
    cluster: body('container.gcp/v1', 'Cluster', { forProvider: { networkSelector: { matchControllerRef: true }, subnetworkSelector: { matchControllerRef: true } } }),
    network: body('compute.gcp/v1', 'Network'),
    subnet: body('compute.gcp/v1', 'Subnetwork', {}, { name: 'sub', labels: { zone: 'a' } }),
    'subnet-b': body('compute.gcp/v1', 'Subnetwork', {}, { labels: { zone: 'b' } }),
    'nodepool-gpu': body('container.gcp/v1', 'NodePool', { forProvider: { clusterIdSelector: { matchControllerRef: true }, subnetworkSelector: { matchControllerRef: true, matchLabels: { zone: 'a' } } }, providerConfigRef: { name: 'default' } }),
    binding: body('iam.gcp/v1', 'Member', { forProvider: { subnetRef: { name: 'sub' }, otherSubnetSelector: { matchLabels: { zone: 'b' } } } }),
  };

  it('resolves a controller-ref selector to the most specific kind its field names, filtered by its labels', () => {
    expect(selectsOf('cluster', bodies)).toEqual(['network', 'subnet', 'subnet-b']);
    expect(selectsOf('nodepool-gpu', bodies)).toEqual(['cluster', 'subnet']);
  });

  it('resolves a field naming no kind to the one other kind of its API group; a name ref and a label selector to what they name', () => {
    const nebius = {
      'node-group': body('mk8s.nebius/v1', 'NodeGroup', { forProvider: { parentIdSelector: { matchControllerRef: true } } }),
      'node-group-b': body('mk8s.nebius/v1', 'NodeGroup'),
      cluster: body('mk8s.nebius/v1', 'Cluster'),
      network: body('vpc.nebius/v1', 'Network'),
    };
    expect(selectsOf('node-group', nebius)).toEqual(['cluster']);
    expect(selectsOf('binding', bodies)).toEqual(['subnet', 'subnet-b']);
  });

  it('says nothing for a resource that selects nothing: a pool that dropped its cluster selector', () => {
    const dropped = body('container.gcp/v1', 'NodePool', { forProvider: { nodeCount: 1, subnetSelector: { matchLabels: { zone: 'z' } } } });
    expect(selectsOf('nodepool-gpu', { ...bodies, 'nodepool-gpu': dropped })).toBeUndefined();
    expect(selectsOf('network', bodies)).toBeUndefined();
  });
});
