/**
 * Labels where they really are, from trace to finding: node labels under a field no list names, an
 * inline system pool's labels counted for the system pool (never the cluster), and metadata that
 * another composed resource selects, or that Crossplane acts on, judged as behavior, not style.
 */
import { describe, expect, it } from 'vitest';
import { compareAcross } from '../../src/compare/cross.js';
import type { Finding } from '../../src/compare/findings.js';
import { skeletonize } from '../../src/skeleton/skeletonize.js';
import type { Skeleton } from '../../src/skeleton/types.js';
import type { JsonObject } from '../../src/util/objects.js';
import { convergedTrace } from '../helpers/traces.js';

const REF = { kind: 'ClusterProviderConfig', name: 'default' };
const POOL_LABELS = (pool: string) => ({ 'modelplane.ai/pool': pool });

const cloud = (kind: string, forProvider: JsonObject = {}, metadata: JsonObject = {}): JsonObject => ({ apiVersion: 'example.cloud/v1', kind, metadata, spec: { forProvider, providerConfigRef: REF } });

/** One provider's converged answer, skeletonized. */
function cell(provider: string, resources: Record<string, JsonObject>): Skeleton {
  const trace = convergedTrace(provider, resources);
  return skeletonize({ trace, adapter: { roles: {}, values: {} }, pools: ['gpu'] });
}

/** A provider that composes its system pool beside the cluster, its node labels under `labelsField`. */
const composed = (provider: string, labelsField = 'nodeLabels') =>
  cell(provider, {
    cluster: cloud('Cluster'),
    'nodepool-system': cloud('NodePool', { name: 'system', [labelsField]: POOL_LABELS('system') }),
    'nodepool-gpu': cloud('NodePool', { name: 'gpu', [labelsField]: POOL_LABELS('gpu') }),
  });

/** A provider whose system pool is declared inside its cluster (AKS defaultNodePool), labelled or not. */
const inline = (provider: string, labels: JsonObject | null = POOL_LABELS('system')) =>
  cell(provider, {
    cluster: cloud('KubernetesCluster', { defaultNodePool: { name: 'system', ...(labels ? { nodeLabels: labels } : {}) }, tags: { team: 'ml' } }),
    'nodepool-gpu': cloud('NodePool', { name: 'gpu', nodeLabels: POOL_LABELS('gpu') }),
  });

const across = (skeletons: Skeleton[]): Finding[] => compareAcross({ scenario: 'converge', skeletons, pools: ['gpu'], ablated: false });
const ids = (findings: Finding[]) => findings.map((finding) => finding.id).sort();

describe('node labels under a field no list names', () => {
  it('are read where the pool labels sit (nodeLabelList, as pairs), so the provider is not blamed', () => {
    const pairs = cell('d', {
      cluster: cloud('Cluster'),
      'nodepool-system': cloud('NodePool', { name: 'system', nodeLabelList: [{ key: 'modelplane.ai/pool', value: 'system' }] }),
      'nodepool-gpu': cloud('NodePool', { name: 'gpu', nodeLabelList: [{ key: 'modelplane.ai/pool', value: 'gpu' }] }),
    });
    expect(pairs.resources['nodepool-gpu']!.labels).toEqual(['modelplane.ai/pool']);
    expect(across([composed('a'), composed('b'), composed('c'), pairs])).toEqual([]);
    // The comparison is live: a pool that really lacks the label is still blamed.
    const unlabelled = cell('d', { cluster: cloud('Cluster'), 'nodepool-system': cloud('NodePool', { name: 'system', nodeLabelList: POOL_LABELS('system') }), 'nodepool-gpu': cloud('NodePool', { name: 'gpu' }) });
    expect(ids(across([composed('a'), composed('b'), composed('c'), unlabelled]))).toEqual(['div:node-pool:labels:d']);
  });
});

describe('an inline pool', () => {
  it("declared by the adapter (`inline: {system-pool: cluster}`) under a field drift does not know, gives its labels to the pool, not the cluster", () => {
    const trace = convergedTrace('x', {
      cluster: cloud('Cluster', { initialPool: { name: 'system', kubeLabels: POOL_LABELS('system') }, tags: { team: 'ml' } }),
      'nodepool-gpu': cloud('NodePool', { name: 'gpu', nodeLabels: POOL_LABELS('gpu') }),
    });
    const declared = skeletonize({ trace, adapter: { roles: {}, values: {}, inline: { 'system-pool': 'cluster' } }, pools: ['gpu'] });
    expect(declared.inline).toEqual({ 'system-pool': 'cluster' });
    expect(declared.inlineLabels).toEqual({ 'system-pool': ['modelplane.ai/pool'] });
    expect(declared.resources.cluster!.labels).toBeUndefined();
    // Compared with clusters that carry no labels, nothing is blamed on the cluster's labels.
    expect(ids(across([inline('a'), inline('b'), inline('c'), declared])).filter((id) => id.startsWith('div:cluster:'))).toEqual([]);
    // Without the adapter's word, the labels are the cluster's: the difference the adapter resolves.
    expect(skeletonize({ trace, adapter: { roles: {}, values: {} }, pools: ['gpu'] }).resources.cluster!.labels).toEqual(['modelplane.ai/pool']);
  });

  it('gives its labels to its pool role, never to the cluster', () => {
    const skeleton = inline('aks');
    expect(skeleton.inline).toEqual({ 'system-pool': 'cluster' });
    expect(skeleton.inlineLabels).toEqual({ 'system-pool': ['modelplane.ai/pool'] });
    expect(skeleton.resources.cluster!.labels).toBeUndefined();
  });

  it('is compared on system-pool labels with composed pools, and takes no part in key facets', () => {
    // The inline providers' clusters agree with the composed ones: no cluster labels divergence.
    const findings = across([composed('a'), composed('b'), composed('c'), composed('d'), inline('e')]);
    expect(ids(findings)).toEqual(['div:system-pool:presence:e']);
    // A key facet is only among the providers that compose the role.
    expect(findings.some((finding) => finding.facet === 'key-pattern')).toBe(false);
    // An inline system pool without the pool label is blamed on system-pool labels, where the fix is.
    const unlabelled = across([composed('a'), composed('b'), composed('c'), inline('d', null)]);
    expect(ids(unlabelled)).toEqual(['div:system-pool:labels:d', 'div:system-pool:presence:d']);
  });
});

describe('metadata that acts is behavior', () => {
  /** A provider whose subnets carry a zone label; its node pool selects them by it when `selects`. */
  const zoned = (provider: string, selects: boolean, annotation?: string) =>
    cell(provider, {
      cluster: cloud('Cluster'),
      subnet: cloud('Subnet', {}, { labels: { 'example.cloud/zone': 'a' }, ...(annotation ? { annotations: { [annotation]: 'demo-subnet' } } : {}) }),
      'nodepool-gpu': cloud('NodePool', { name: 'gpu', nodeLabels: POOL_LABELS('gpu'), subnetIdSelector: selects ? { matchLabels: { 'example.cloud/zone': 'a' } } : { matchControllerRef: true } }),
    });
  const plain = (provider: string) => cell(provider, { cluster: cloud('Cluster'), subnet: cloud('Subnet'), 'nodepool-gpu': cloud('NodePool', { name: 'gpu', nodeLabels: POOL_LABELS('gpu') }) });

  it('a subnet label a node pool selects is a behavioral selected-labels finding, not a stylistic metadata one', () => {
    const findings = across([plain('a'), plain('b'), plain('c'), zoned('d', true)]);
    expect(findings).toEqual([expect.objectContaining({ id: 'div:subnet:selected-labels:d', class: 'behavioral' })]);
    // The same label that nothing selects only dresses the subnet: style.
    expect(across([plain('a'), plain('b'), plain('c'), zoned('d', false)])).toEqual([expect.objectContaining({ id: 'div:subnet:metadata-labels:d', class: 'stylistic' })]);
  });

  it('a crossplane.io/ annotation is behavior (external-name names the cloud resource); another annotation is style', () => {
    const kinds = (findings: Finding[]) => findings.map((finding) => [finding.facet, finding.class]).sort();
    expect(kinds(across([plain('a'), plain('b'), plain('c'), zoned('d', true, 'crossplane.io/external-name')]))).toEqual([
      ['behavior-annotations', 'behavioral'],
      ['selected-labels', 'behavioral'],
    ]);
    expect(kinds(across([plain('a'), plain('b'), plain('c'), zoned('d', true, 'example.cloud/note')]))).toEqual([
      ['metadata-annotations', 'stylistic'],
      ['selected-labels', 'behavioral'],
    ]);
  });
});
