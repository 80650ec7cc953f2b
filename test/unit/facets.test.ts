/** The newer facets, on providers that really differ: labels from every shape, metadata, status fields, identity shape, convergence. */
import { describe, expect, it } from 'vitest';
import { compareAcross } from '../../src/compare/cross.js';
import type { Finding } from '../../src/compare/findings.js';
import { dependentsOf, labelKeys, metadataOf } from '../../src/skeleton/bodyFacts.js';
import type { ResourceSkeleton, Skeleton } from '../../src/skeleton/types.js';
import { goodSkeleton } from '../helpers/fourth.js';

const across = (skeletons: Skeleton[]): Finding[] => compareAcross({ scenario: 'converge', pools: ['gpu'], ablated: false, skeletons });
const ids = (findings: Finding[]) => findings.map((finding) => finding.id).sort();
const GPU_LABELS = ['modelplane.ai/gpu', 'modelplane.ai/pool'];

function withResource(provider: string, key: string, change: Partial<ResourceSkeleton>): Skeleton {
  return goodSkeleton(provider, 'converge', { resources: { [key]: { ...goodSkeleton(provider).resources[key]!, ...change } } });
}

describe('labelKeys: every usual shape', () => {
  it('reads a map, a list of {key, value} pairs and a list of {name, value} pairs alike', () => {
    const map = { spec: { forProvider: { labels: { 'modelplane.ai/pool': 'gpu', 'modelplane.ai/gpu': 'nvidia-l4' } } } };
    const pairs = { spec: { forProvider: { labels: [{ key: 'modelplane.ai/pool', value: 'gpu' }, { key: 'modelplane.ai/gpu', value: 'nvidia-l4' }] } } };
    const named = { spec: { forProvider: { labels: [{ name: 'modelplane.ai/gpu', value: 'nvidia-l4' }, { name: 'modelplane.ai/pool', value: 'gpu' }] } } };
    for (const body of [map, pairs, named]) expect(labelKeys(body)).toEqual(GPU_LABELS);
  });

  it('reads nodeLabels, and fields the adapter names, at any depth; never selectors', () => {
    const aks = { spec: { forProvider: { nodeLabels: { 'modelplane.ai/pool': 'gpu' }, podSubnetIdSelector: { matchLabels: { zone: 'a' } } } } };
    expect(labelKeys(aks)).toEqual(['modelplane.ai/pool']);
    const custom = { spec: { forProvider: { pool: { kubernetesLabels: [{ key: 'team', value: 'ml' }] } } } };
    expect(labelKeys(custom)).toBeUndefined();
    expect(labelKeys(custom, ['kubernetesLabels'])).toEqual(['team']);
  });

  it('finds labels under a field nobody listed (nodeLabelList), as a map or as pairs, where the pool’s own labels sit', () => {
    const pairs = { spec: { forProvider: { nodeLabelList: [{ key: 'modelplane.ai/pool', value: 'gpu' }, { key: 'modelplane.ai/gpu', value: 'nvidia-l4' }, { key: 'team', value: 'ml' }] } } };
    expect(labelKeys(pairs)).toEqual([...GPU_LABELS, 'team']);
    const map = { spec: { forProvider: { config: { nodeLabelList: { 'modelplane.ai/pool': 'gpu', 'modelplane.ai/gpu': 'nvidia-l4' } } } } };
    expect(labelKeys(map)).toEqual(GPU_LABELS);
    // A selector matching the pool label chooses nodes; it labels nothing.
    expect(labelKeys({ spec: { forProvider: { nodeSelector: { matchLabels: { 'modelplane.ai/pool': 'gpu' } } } } })).toBeUndefined();
    // Numbers beside the names are not labels: a pool's sizing map carries no label key.
    expect(labelKeys({ spec: { forProvider: { nodeLabelList: { name: 'gpu', count: 1 } } } })).toBeUndefined();
  });

  it('leaves an inline pool’s declaration to its pool', () => {
    const declaration = { name: 'system', nodeLabels: { 'modelplane.ai/pool': 'system' } };
    const cluster = { spec: { forProvider: { defaultNodePool: declaration, tags: { labels: { team: 'ml' } } } } };
    expect(labelKeys(cluster)).toEqual(['modelplane.ai/pool', 'team']);
    expect(labelKeys(cluster, [], new Set([declaration]))).toEqual(['team']);
  });

  it('leaves the resource’s own metadata labels to metadataOf, but reads labels of templates it creates', () => {
    const body = { metadata: { labels: { 'modelplane.ai/zone': 'a' } }, spec: { forProvider: { template: { metadata: { labels: { 'modelplane.ai/pool': 'gpu' } } } } } };
    expect(labelKeys(body)).toEqual(['modelplane.ai/pool']);
    expect(metadataOf(body)).toEqual({ labels: ['modelplane.ai/zone'] });
  });
});

describe('metadataOf', () => {
  it('records the namespace set, and label and annotation keys from maps or pairs; crossplane.io/ annotations act', () => {
    expect(metadataOf({ metadata: { namespace: 'ml-team', annotations: { 'crossplane.io/external-name': 'x', 'example.org/note': 'y' }, labels: [{ key: 'team', value: 'ml' }] } })).toEqual({
      namespace: 'ml-team',
      labels: ['team'],
      annotations: ['example.org/note'],
      behaviorAnnotations: ['crossplane.io/external-name'],
    });
    expect(metadataOf({ metadata: { name: 'x' } })).toBeUndefined();
    expect(metadataOf({})).toBeUndefined();
  });
});

describe('metadataOf: what another composed resource selects or references is behavior', () => {
  const subnet = { metadata: { labels: { 'modelplane.ai/zone': 'a', team: 'ml' }, annotations: { 'example.org/subnet-id': 's-1' } }, spec: {} };
  const bodies = (other: Record<string, unknown>) => ({ subnet, nodegroup: { spec: { forProvider: other } } });

  it('a label another resource’s selector matches', () => {
    const selecting = dependentsOf(bodies({ subnetIdSelector: { matchLabels: { 'modelplane.ai/zone': 'a' } } }), 'subnet');
    expect(metadataOf(subnet, selecting)).toEqual({ labels: ['team'], annotations: ['example.org/subnet-id'], selectedLabels: ['modelplane.ai/zone'] });
  });

  it('an annotation another resource references by a field path', () => {
    const referencing = dependentsOf(bodies({ subnetIdRef: { fieldPath: "metadata.annotations['example.org/subnet-id']" } }), 'subnet');
    expect(metadataOf(subnet, referencing)).toEqual({ labels: ['modelplane.ai/zone', 'team'], behaviorAnnotations: ['example.org/subnet-id'] });
  });

  it('nothing, when only the resource itself mentions them, or a word merely contains the key', () => {
    expect(metadataOf(subnet, dependentsOf({ subnet }, 'subnet'))).toEqual({ labels: ['modelplane.ai/zone', 'team'], annotations: ['example.org/subnet-id'] });
    expect(metadataOf(subnet, dependentsOf(bodies({ description: 'the ml team’s steam' }), 'subnet'))).toEqual({ labels: ['modelplane.ai/zone', 'team'], annotations: ['example.org/subnet-id'] });
  });
});

describe('dependentsOf: each body walked once, every other body counted', () => {
  it('gives the same answer for a body met again, and leaves out only the one asked about', () => {
    const selector = { spec: { forProvider: { subnetIdSelector: { matchLabels: { zone: 'a' } }, name: 'pool-a' } } };
    const all = { subnet: { spec: { cidr: '10.0.0.0/24' } }, pool: selector, other: { spec: { forProvider: { name: 'other' } } } };
    const first = dependentsOf(all, 'subnet');
    const again = dependentsOf(all, 'subnet');
    expect([...again.selected]).toEqual([...first.selected]);
    expect([...first.selected]).toEqual(['zone']);
    expect([...first.mentioned].sort()).toEqual(['a', 'other', 'pool-a']);
    // The selector's own body is left out of its own dependents; the subnet's strings now count.
    const forPool = dependentsOf(all, 'pool');
    expect([...forPool.selected]).toEqual([]);
    expect([...forPool.mentioned].sort()).toEqual(['10.0.0.0/24', 'other']);
  });
});

describe('compareAcross: node labels under other shapes compare equal', () => {
  it('a provider whose labels come as pairs is not blamed once they are read as keys', () => {
    // What each skeleton records is the keys, whatever shape the body had (see labelKeys).
    const pairs = labelKeys({ spec: { forProvider: { labels: [{ key: 'modelplane.ai/pool', value: 'gpu' }, { key: 'modelplane.ai/gpu', value: 'l4' }] } } });
    expect(across([goodSkeleton('a'), withResource('b', 'nodepool-gpu', { labels: pairs! }), goodSkeleton('c'), goodSkeleton('d')])).toEqual([]);
    // Read as before (the pair's field names), they would have diverged.
    expect(ids(across([goodSkeleton('a'), withResource('b', 'nodepool-gpu', { labels: ['key', 'value'] }), goodSkeleton('c'), goodSkeleton('d')]))).toEqual(['div:node-pool:labels:b']);
  });
});

describe('compareAcross: metadata conventions are stylistic', () => {
  it('a composed resource that sets metadata.namespace diverges, class stylistic', () => {
    const findings = across([goodSkeleton('a'), withResource('b', 'network', { metadata: { namespace: '{namespace}' } }), goodSkeleton('c'), goodSkeleton('d')]);
    expect(findings).toEqual([expect.objectContaining({ id: 'div:network:metadata-namespace:b', class: 'stylistic', values: { a: [null], b: ['{namespace}'], c: [null], d: [null] }, consensus: [null] })]);
  });

  it('compares label and annotation keys of the resource itself', () => {
    const labelled = withResource('c', 'cluster', { metadata: { labels: ['team'], annotations: ['crossplane.io/external-name'] } });
    expect(ids(across([goodSkeleton('a'), goodSkeleton('b'), labelled, goodSkeleton('d')]))).toEqual(['div:cluster:metadata-annotations:c', 'div:cluster:metadata-labels:c']);
    expect(across([goodSkeleton('a'), goodSkeleton('b'), labelled, goodSkeleton('d')]).every((finding) => finding.class === 'stylistic')).toBe(true);
  });
});

describe('compareAcross: status fields', () => {
  const withFields = (provider: string, fields?: string[]) => {
    const base = goodSkeleton(provider);
    return goodSkeleton(provider, 'converge', { status: { ...base.status, ...(fields ? { fields } : {}) } });
  };

  it('a provider that publishes an extra status field diverges (behavioral)', () => {
    const findings = across([withFields('a'), withFields('b', ['network']), withFields('c'), withFields('d')]);
    expect(findings).toEqual([expect.objectContaining({ id: 'div:status:fields:b', class: 'behavioral', values: { a: [], b: ['network'], c: [], d: [] } })]);
  });

  it('two providers that each publish a field of their own, beside one that publishes none, are a split', () => {
    const findings = across([withFields('gke', ['network']), withFields('eks', ['efsFileSystemId']), withFields('nebius')]);
    expect(ids(findings)).toEqual(['split:status:fields']);
  });
});

describe('compareAcross: identity entry by shape', () => {
  const identity = (provider: string, entry?: { type: string; name: string; key: string }) => {
    const base = goodSkeleton(provider);
    return goodSkeleton(provider, 'converge', { status: { ...base.status, secrets: [...base.status.secrets, ...(entry ? [{ ...entry, appears: 0 }] : [])] } });
  };

  it('compares what the entry carries, not the cloud’s type or Secret name', () => {
    const gke = identity('gke', { type: 'GoogleApplicationCredentials', name: '{xr}-gcp-credentials', key: 'private_key' });
    const nebius = identity('nebius', { type: 'NebiusServiceAccountCredentials', name: 'nebius-credentials', key: 'credentials.json' });
    const aks = identity('aks', { type: 'AzureCredentials', name: '{xr}-azure', key: 'credentials' });
    const oci = identity('oci', { type: 'OciApiKey', name: '{xr}-oci', key: 'key.pem' });
    expect(across([gke, nebius, aks, oci])).toEqual([]);
    // Three of four that carry a key: a convention (two of three would be too few voters).
    const keyless = identity('aks', { type: 'AzureCredentials', name: '{xr}-azure', key: '' });
    expect(ids(across([gke, nebius, keyless, oci]))).toEqual(['div:status:identity-shape:aks']);
  });

  it('a provider without an identity entry takes part in identity-entry only', () => {
    const gke = identity('gke', { type: 'GoogleApplicationCredentials', name: '{xr}-gcp-credentials', key: 'private_key' });
    const nebius = identity('nebius', { type: 'NebiusServiceAccountCredentials', name: 'nebius-credentials', key: 'credentials.json' });
    const aks = identity('aks', { type: 'AzureCredentials', name: '{xr}-azure', key: 'credentials' });
    const findings = across([gke, nebius, aks, identity('eks')]);
    expect(ids(findings)).toEqual(['div:status:identity-entry:eks']);
  });
});

describe('compareAcross: convergence by whether and how, not by step', () => {
  const converging = (provider: string, converged: Skeleton['converged']) => goodSkeleton(provider, 'converge', { converged });

  it('a cloud that needs more steps to get Ready does not diverge', () => {
    expect(across([converging('a', { step: 2, xrReady: true }), converging('b', { step: 5, xrReady: true }), converging('c', { step: 2, xrReady: true })])).toEqual([]);
  });

  it('stalled (a fixpoint, XR not Ready) and oscillating (no fixpoint) diverge from ready', () => {
    const stalled = across([converging('a', { step: 2, xrReady: true }), converging('b', { step: 1, xrReady: false }), converging('c', { step: 3, xrReady: true }), converging('d', { step: 2, xrReady: true })]);
    expect(stalled).toEqual([expect.objectContaining({ id: 'div:converged:converged:b', values: { a: 'ready', b: 'stalled', c: 'ready', d: 'ready' } })]);
    const oscillating = across([converging('a', { step: 2, xrReady: true }), converging('b', null), converging('c', { step: 3, xrReady: true }), converging('d', { step: 2, xrReady: true })]);
    expect(oscillating).toEqual([expect.objectContaining({ id: 'div:converged:converged:b', values: { a: 'ready', b: 'oscillating', c: 'ready', d: 'ready' } })]);
  });

  it('never tells a provider that is Ready where the others stall to become stalled', () => {
    const stalling = (provider: string) => converging(provider, { step: 1, xrReady: false });
    const [ready] = across([stalling('a'), stalling('b'), converging('c', { step: 1, xrReady: true }), stalling('d')]);
    expect(ready).toMatchObject({ id: 'div:converged:converged:c', values: { a: 'stalled', b: 'stalled', c: 'ready', d: 'stalled' } });
    expect(ready!.hint).toContain('c reports its XR Ready where 3 of 4 providers (a, b, d) do not: becoming stalled is no fix');
    expect(ready!.hint).not.toMatch(/make c follow it/i);
  });
});
