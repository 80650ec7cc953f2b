/** skeletonize and toCanonicalYaml on hand-built traces: no Python, no processes. */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { toCanonicalYaml } from '../../src/skeleton/canonical.js';
import { skeletonize, type SkeletonInput } from '../../src/skeleton/skeletonize.js';
import { makeTemplater } from '../../src/skeleton/template.js';
import { SKELETON_VERSION, type Skeleton } from '../../src/skeleton/types.js';
import type { JsonObject } from '../../src/util/objects.js';
import type { DesiredResource, EventRecord, PerturbationRecord, ReadyMark, Selector, StepRecord, Trace } from '../../src/world/trace.js';

// ---- builders -------------------------------------------------------------------------------------

const XR = { name: 'demo', namespace: 'ml-team', uid: '00000000-0000-0000-0000-000000000001' };
const GCP_VALUES = { cloud: 'GCP', project: 'demo-project', region: 'us-central1' };

function res(kind: string, extra: JsonObject = {}, apiVersion = 'compute.gcp.m.upbound.io/v1beta1'): JsonObject {
  return { apiVersion, kind, spec: { forProvider: {}, providerConfigRef: { kind: 'ClusterProviderConfig', name: 'default' } }, ...extra };
}

function desired(resource: JsonObject, ready: ReadyMark = 'Unspecified'): DesiredResource {
  return { resource, ready };
}

interface StepInput {
  phase?: string;
  resources?: Record<string, DesiredResource>;
  status?: JsonObject;
  dropped?: string[];
  requirements?: Record<string, Selector>;
  satisfied?: string[];
  results?: EventRecord[];
  xrReady?: boolean;
}

function step(index: number, input: StepInput = {}): StepRecord {
  return {
    index,
    phase: input.phase ?? 'converge',
    calls: 1,
    requirements: input.requirements ?? {},
    satisfied: input.satisfied ?? [],
    status: input.status ?? {},
    resources: input.resources ?? {},
    results: input.results ?? [],
    dropped: input.dropped ?? [],
    xrReady: input.xrReady ?? false,
    xr: { apiVersion: 'infrastructure.modelplane.ai/v1alpha1', kind: 'GKECluster', metadata: { name: XR.name, namespace: XR.namespace } },
    names: {},
  };
}

function trace(steps: StepRecord[], extra: Partial<Trace> = {}): Trace {
  return {
    provider: 'gke',
    scenario: 'converge',
    xr: XR,
    steps,
    converged: { step: steps.length - 1, xrReady: steps[steps.length - 1]?.xrReady ?? false },
    perturbations: [],
    ...extra,
  };
}

function skeleton(t: Trace, input: Partial<Omit<SkeletonInput, 'trace'>> = {}): Skeleton {
  return skeletonize({ trace: t, adapter: input.adapter ?? { roles: {}, values: GCP_VALUES }, pools: input.pools ?? ['gpu'], ...(input.gates ? { gates: input.gates } : {}) });
}

// ---- resources --------------------------------------------------------------------------------------

describe('skeletonize: resources', () => {
  const providerConfig = (apiVersion: string) =>
    res('ProviderConfig', { spec: { credentials: { source: 'Secret', secretRef: { namespace: 'ml-team', name: 'demo-kubeconfig', key: 'kubeconfig' } } } }, apiVersion);
  const converge = trace([
    step(0, {
      resources: {
        network: desired(res('Network')),
        cluster: desired(res('Cluster')),
        'provider-config-kubernetes': desired(providerConfig('kubernetes.m.crossplane.io/v1alpha1'), 'True'),
      },
    }),
    step(1, {
      resources: {
        network: desired(res('Network'), 'True'),
        cluster: desired(res('Cluster')),
        'provider-config-kubernetes': desired(providerConfig('kubernetes.m.crossplane.io/v1alpha1'), 'True'),
        'nodepool-gpu': desired(res('NodePool', {}, 'container.gcp.m.upbound.io/v1beta1'), 'True'),
        'nodepool-system': desired(res('NodePool', {}, 'container.gcp.m.upbound.io/v1beta1')),
      },
    }),
    step(2, {
      resources: {
        // readiness withdrawn later does not move `ready`: it is the first step marked READY_TRUE
        network: desired(res('Network'), 'Unspecified'),
        cluster: desired(res('Cluster')),
        'provider-config-kubernetes': desired(providerConfig('kubernetes.m.crossplane.io/v1alpha1'), 'True'),
        'nodepool-gpu': desired(res('NodePool', {}, 'container.gcp.m.upbound.io/v1beta1'), 'True'),
        'nodepool-system': desired(res('NodePool', {}, 'container.gcp.m.upbound.io/v1beta1'), 'True'),
      },
    }),
  ]);

  it('computes appears, ready and readyBy per key', () => {
    const { resources } = skeleton(converge);
    expect(Object.keys(resources)).toEqual(['cluster', 'network', 'nodepool-gpu', 'nodepool-system', 'provider-config-kubernetes']);
    // marked READY_TRUE the step it appears: composed
    expect(resources['provider-config-kubernetes']).toMatchObject({ appears: 0, ready: 0, readyBy: 'composed' });
    expect(resources['nodepool-gpu']).toMatchObject({ appears: 1, ready: 1, readyBy: 'composed' });
    // marked only once the world reported it: observed
    expect(resources.network).toMatchObject({ appears: 0, ready: 1, readyBy: 'observed' });
    expect(resources['nodepool-system']).toMatchObject({ appears: 1, ready: 2, readyBy: 'observed' });
    // never marked
    expect(resources.cluster).toMatchObject({ appears: 0, ready: null, readyBy: null });
    expect(resources.cluster).not.toHaveProperty('dropped');
  });

  it('records role, apiVersion, kind and the facets of the latest body', () => {
    const { resources } = skeleton(converge);
    expect(resources['nodepool-gpu']).toMatchObject({ role: 'node-pool', apiVersion: 'container.gcp.m.upbound.io/v1beta1', kind: 'NodePool' });
    expect(resources['nodepool-system']!.role).toBe('system-pool');
    expect(resources.network).toMatchObject({ role: 'network', providerConfigRef: { kind: 'ClusterProviderConfig', name: 'default' } });
    expect(resources['provider-config-kubernetes']).toMatchObject({
      role: 'provider-config-kubernetes',
      kind: 'ProviderConfig',
      reads: ['{namespace}/{xr}-kubeconfig:kubeconfig'],
    });
  });

  it('infers roles from the resources, lets the adapter roles override them; unknown keys play themselves', () => {
    const t = trace([
      step(0, {
        resources: {
          'subnet-a': desired(res('Subnet')),
          'nodepool-inference': desired(res('NodeGroup')),
          'nodepool-other': desired(res('NodeGroup')),
          'iam-binding': desired(res('ProjectIAMMember')),
          'private-network': desired(res('Network')),
        },
      }),
    ]);
    const { resources } = skeleton(t, { adapter: { roles: { 'private-network': 'private-network' }, values: {} }, pools: ['inference'] });
    expect(resources['subnet-a']).toMatchObject({ role: 'subnet', plane: 'cloud' });
    expect(resources['nodepool-inference']!.role).toBe('node-pool');
    expect(resources['nodepool-other']!.role).toBe('system-pool'); // a pool serving none of the scenario's pools
    expect(resources['iam-binding']!.role).toBe('iam-binding');
    expect(resources['private-network']!.role).toBe('private-network'); // the override beats the kind
  });

  it('takes the facets from the latest converge step that holds the key', () => {
    const object = (policies: string[]) =>
      res(
        'Object',
        {
          spec: {
            forProvider: { manifest: { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'modelplane-rwx' } } },
            providerConfigRef: { kind: 'ProviderConfig', name: 'demo' },
            managementPolicies: policies,
            readiness: { policy: 'SuccessfulCreate' },
          },
        },
        'kubernetes.m.crossplane.io/v1alpha1',
      );
    // The ProviderConfig the Object is applied through, composed beside it: that makes the Object in-cluster.
    const providerConfig = desired({ apiVersion: 'kubernetes.m.crossplane.io/v1alpha1', kind: 'ProviderConfig', metadata: { name: 'demo' }, spec: {} }, 'True');
    const t = trace([
      step(0, { resources: { 'storage-class-rwx': desired(object(['Observe']), 'True'), pc: providerConfig } }),
      step(1, { resources: { 'storage-class-rwx': desired(object(['Observe', 'Create', 'Update', 'LateInitialize']), 'True'), pc: providerConfig } }),
    ]);
    expect(skeleton(t).resources['storage-class-rwx']).toMatchObject({
      role: 'cache-storage-class',
      plane: 'in-cluster',
      providerConfigRef: { kind: 'ProviderConfig', name: '{xr}' },
      managementPolicies: ['Observe', 'Create', 'Update', 'LateInitialize'],
      readinessPolicy: 'SuccessfulCreate',
    });
  });

  it('records the step a converging world drops a key', () => {
    const t = trace([
      step(0, { resources: { network: desired(res('Network')), 'old-thing': desired(res('Thing')) } }),
      step(1, { resources: { network: desired(res('Network')), 'old-thing': desired(res('Thing')) } }),
      step(2, { resources: { network: desired(res('Network')) }, dropped: ['old-thing'] }),
      step(3, { resources: { network: desired(res('Network')) } }),
    ]);
    const { resources } = skeleton(t);
    expect(resources['old-thing']).toMatchObject({ appears: 0, dropped: 2 });
    expect(resources.network).not.toHaveProperty('dropped');
  });

  it('only converge steps make up the resources; perturbation steps do not add keys', () => {
    const t = trace(
      [
        step(0, { resources: { network: desired(res('Network'), 'True') } }),
        step(1, { phase: 'remove-credentials', resources: { network: desired(res('Network')), 'late-key': desired(res('Thing')) } }),
      ],
      { converged: { step: 0, xrReady: true }, perturbations: [{ do: 'remove-credentials', from: 1, to: 1 }] },
    );
    expect(Object.keys(skeleton(t).resources)).toEqual(['network']);
  });

  it('carries the gating analysis when given', () => {
    const t = trace([step(0, { resources: { network: desired(res('Network')), subnet: desired(res('Subnetwork')) } })]);
    const { resources } = skeleton(t, { gates: { subnet: ['network.exists'] } });
    expect(resources.subnet!.gatedOn).toEqual(['network.exists']);
    expect(resources.network).not.toHaveProperty('gatedOn');
  });
});

// ---- header, status, requirements, events ---------------------------------------------------------------

describe('skeletonize: header, status, requirements and events', () => {
  const secrets0 = [{ type: 'Kubeconfig', name: 'demo-kubeconfig', key: 'kubeconfig' }];
  const secrets1 = [...secrets0, { type: 'GoogleApplicationCredentials', name: 'demo-gcp-credentials', key: 'private_key' }];

  it('writes the header: version, provider, scenario, converged; error only when set', () => {
    const ok = skeleton(trace([step(0, { xrReady: true })]));
    expect(ok).toMatchObject({ skeleton: SKELETON_VERSION, provider: 'gke', scenario: 'converge', converged: { step: 0, xrReady: true } });
    expect(ok).not.toHaveProperty('error');
    const failed = skeleton(trace([step(0)], { converged: null, error: 'function demo crashed' }));
    expect(failed.converged).toBeNull();
    expect(failed.error).toBe('function {xr} crashed');
  });

  it('records status secrets with the step each first appears, the cache and other fields', () => {
    const t = trace([
      step(0, { status: {} }),
      step(1, { status: { secrets: secrets0 } }),
      step(2, { status: { secrets: secrets1, cache: { storageClassName: 'modelplane-rwx' } } }),
      step(3, { status: { secrets: secrets1, cache: { storageClassName: 'modelplane-rwx' }, zeta: 1, alpha: 'x' } }),
    ]);
    expect(skeleton(t).status).toEqual({
      appears: 1,
      secrets: [
        { type: 'Kubeconfig', name: '{xr}-kubeconfig', key: 'kubeconfig', appears: 1 },
        { type: 'GoogleApplicationCredentials', name: '{xr}-gcp-credentials', key: 'private_key', appears: 2 },
      ],
      cache: { storageClassName: 'modelplane-rwx', appears: 2 },
      fields: ['alpha', 'zeta'],
    });
  });

  it('status that is never published: appears null, no secrets, no cache', () => {
    const status = skeleton(trace([step(0), step(1)])).status;
    expect(status).toEqual({ appears: null, secrets: [] });
  });

  it('reads status and requirements at the converged step, not at a later converge step', () => {
    const t = trace(
      [
        step(0, { status: { secrets: secrets0 }, requirements: { early: { apiVersion: 'v1', kind: 'Secret' } } }),
        step(1, { status: { secrets: secrets1 }, requirements: { converged: { apiVersion: 'v1', kind: 'Secret' } } }),
        step(2, { status: { secrets: secrets0 }, requirements: { later: { apiVersion: 'v1', kind: 'Secret' } } }),
      ],
      { converged: { step: 1, xrReady: true } },
    );
    const s = skeleton(t);
    expect(Object.keys(s.requirements)).toEqual(['converged']);
    expect(s.status.secrets.map((entry) => entry.type)).toEqual(['Kubeconfig', 'GoogleApplicationCredentials']);
  });

  it('without convergence, reads the last converge step', () => {
    const t = trace(
      [
        step(0, { status: { secrets: secrets0 } }),
        step(1, { status: { secrets: secrets1 } }),
        step(2, { phase: 'remove-credentials', status: { secrets: [] } }),
      ],
      { converged: null },
    );
    expect(skeleton(t).status.secrets).toHaveLength(2);
  });

  it('records requirements, their selectors (label keys sorted) and whether they were satisfied', () => {
    const t = trace([
      step(0, {
        requirements: {
          'gcp-provider-config': { apiVersion: 'gcp.m.upbound.io/v1beta1', kind: 'ClusterProviderConfig', matchName: 'default' },
          'a-by-labels': { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'ml-team', matchLabels: { zone: 'a', app: 'demo' } },
        },
        satisfied: ['gcp-provider-config'],
      }),
    ]);
    const { requirements } = skeleton(t);
    expect(Object.keys(requirements)).toEqual(['a-by-labels', 'gcp-provider-config']);
    expect(requirements['gcp-provider-config']).toEqual({
      apiVersion: 'gcp.m.upbound.io/v1beta1',
      kind: 'ClusterProviderConfig',
      select: { name: 'default' },
      satisfied: true,
    });
    expect(requirements['a-by-labels']).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      select: { namespace: '{namespace}', labels: ['app', 'zone'] },
      satisfied: false,
    });
  });

  it('keeps each distinct event once, at the first step it is emitted', () => {
    const waiting: EventRecord = { severity: 'Normal', message: 'Waiting for GCP ClusterProviderConfig default' };
    const warning: EventRecord = { severity: 'Warning', message: 'quota low in us-central1' };
    const t = trace([step(0, { results: [waiting] }), step(1, { results: [waiting, warning] }), step(2, { results: [{ ...waiting, severity: 'Warning' }] })]);
    expect(skeleton(t).events).toEqual([
      { step: 0, severity: 'Normal', message: 'Waiting for {cloud} ClusterProviderConfig default' },
      { step: 1, severity: 'Warning', message: 'quota low in {region}' },
      { step: 2, severity: 'Warning', message: 'Waiting for {cloud} ClusterProviderConfig default' },
    ]);
  });
});

// ---- perturbations ------------------------------------------------------------------------------------------

describe('skeletonize: perturbations', () => {
  const status = { secrets: [{ type: 'Kubeconfig', name: 'demo-kubeconfig', key: 'kubeconfig' }], cache: { storageClassName: 'modelplane-rwx' } };
  const all = (ready: Partial<Record<string, ReadyMark>>, keys = ['cluster', 'iam-binding', 'network']) =>
    Object.fromEntries(keys.map((key) => [key, desired(res(key), ready[key] ?? 'True')]));

  function perturbed(after: StepRecord[], perturbations: PerturbationRecord[]): Trace {
    return trace([step(0, { resources: all({ cluster: 'Unspecified', network: 'Unspecified', 'iam-binding': 'Unspecified' }), status }), step(1, { resources: all({}), status, xrReady: true }), ...after], {
      converged: { step: 1, xrReady: true },
      perturbations,
    });
  }

  it('nothing lost: empty dropped and unmarked, status kept, XR ready', () => {
    const t = perturbed(
      [
        step(2, { phase: 'remove-credentials', resources: all({}), status, xrReady: true, results: [{ severity: 'Normal', message: 'Waiting for GCP ClusterProviderConfig default' }] }),
        step(3, { phase: 'remove-credentials', resources: all({}), status, xrReady: true, results: [{ severity: 'Normal', message: 'Waiting for GCP ClusterProviderConfig default' }] }),
      ],
      [{ do: 'remove-credentials', from: 2, to: 3 }],
    );
    expect(skeleton(t).then).toEqual([
      {
        do: 'remove-credentials',
        dropped: [],
        unmarked: [],
        statusKept: true,
        xrReady: true,
        events: [{ step: 2, severity: 'Normal', message: 'Waiting for {cloud} ClusterProviderConfig default' }],
      },
    ]);
  });

  it('a key deleted after the perturbation is dropped and unmarked; status change is seen', () => {
    const without = all({}, ['cluster', 'network']);
    const t = perturbed(
      [
        step(2, { phase: 'remove-credentials', resources: without, status: { secrets: status.secrets }, dropped: ['iam-binding'], xrReady: true }),
        step(3, { phase: 'remove-credentials', resources: without, status: { secrets: status.secrets }, xrReady: true }),
      ],
      [{ do: 'remove-credentials', from: 2, to: 3 }],
    );
    expect(skeleton(t).then[0]).toMatchObject({ dropped: ['iam-binding'], unmarked: ['iam-binding'], statusKept: false, xrReady: true });
  });

  it('a withdrawn READY_TRUE mark is unmarked; role is kept; xrReady is the last step', () => {
    const t = perturbed(
      [
        step(2, { phase: 'unready cluster', resources: all({ cluster: 'Unspecified' }), status, xrReady: false }),
        step(3, { phase: 'unready cluster', resources: all({ cluster: 'False' }), status, xrReady: false }),
      ],
      [{ do: 'unready', role: 'cluster', from: 2, to: 3 }],
    );
    expect(skeleton(t).then).toEqual([{ do: 'unready', role: 'cluster', dropped: [], unmarked: ['cluster'], statusKept: true, xrReady: false, events: [] }]);
  });

  it('keys not marked before the perturbation are never "unmarked"', () => {
    const t = trace(
      [
        step(0, { resources: all({ network: 'Unspecified' }), status }),
        step(1, { phase: 'remove-credentials', resources: all({ network: 'Unspecified' }), status }),
      ],
      { converged: { step: 0, xrReady: false }, perturbations: [{ do: 'remove-credentials', from: 1, to: 1 }] },
    );
    expect(skeleton(t).then[0]!.unmarked).toEqual([]);
  });

  it('each perturbation compares with the end of the previous one', () => {
    const t = perturbed(
      [
        step(2, { phase: 'remove-credentials', resources: all({ 'iam-binding': 'Unspecified' }), status: { secrets: status.secrets }, xrReady: false }),
        step(3, { phase: 'restore-credentials', resources: all({}), status: { secrets: status.secrets }, xrReady: true }),
      ],
      [
        { do: 'remove-credentials', from: 2, to: 2 },
        { do: 'restore-credentials', from: 3, to: 3 },
      ],
    );
    const [removed, restored] = skeleton(t).then;
    expect(removed).toMatchObject({ unmarked: ['iam-binding'], statusKept: false, xrReady: false });
    // compared with step 2 (end of the first), where iam-binding was not marked and status already lacked cache
    expect(restored).toMatchObject({ unmarked: [], statusKept: true, xrReady: true });
  });
});

// ---- templating ------------------------------------------------------------------------------------------------

describe('skeletonize: value templating', () => {
  function withStrings(strings: string[], input: Partial<Omit<SkeletonInput, 'trace'>> = {}, xr = XR): Skeleton {
    const results: EventRecord[] = strings.map((message) => ({ severity: 'Normal', message }));
    return skeleton(trace([step(0, { results })], { xr }), input);
  }
  const messages = (s: Skeleton) => s.events.map((event) => event.message);

  it('replaces the XR name, namespace and hash suffixes', () => {
    const s = withStrings(['demo-kubeconfig', 'ml-team/demo-kubeconfig:kubeconfig', 'demo-0123456789ab', 'demo', 'pool demo-gpu-abcdef012345 ready']);
    expect(messages(s)).toEqual(['{xr}-kubeconfig', '{namespace}/{xr}-kubeconfig:kubeconfig', '{xr}-{hash}', '{xr}', 'pool {xr}-gpu-{hash} ready']);
  });

  it('replaces adapter values, longest first', () => {
    const s = withStrings(['Waiting for GCP ClusterProviderConfig default', 'demo-project', 'demo@demo-project.iam.gserviceaccount.com', 'us-central1-a']);
    // demo-project is {project}, not {xr}-project
    expect(messages(s)).toEqual(['Waiting for {cloud} ClusterProviderConfig default', '{project}', '{xr}@{project}.iam.gserviceaccount.com', '{region}-a']);
  });

  it('a longer value wins over a shorter one it contains, whichever placeholder they are', () => {
    const s = withStrings(['ml-team and ml'], { adapter: { roles: {}, values: { short: 'ml' } } });
    expect(messages(s)).toEqual(['{namespace} and {short}']);
  });

  it('a longer value wins even when its placeholder sorts after the shorter one', () => {
    // Alphabetical order would try {cloud} before {region} and {xr} before {zone}: only length decides.
    const template = makeTemplater({ xr: 'demo', namespace: 'ml-team', values: { cloud: 'gcp', region: 'gcp-east', zone: 'demo-zone' } });
    expect(template('gcp-east demo-zone gcp demo')).toBe('{region} {zone} {cloud} {xr}');
  });

  it('never replaces inside words', () => {
    const s = withStrings(['demolition', 'ademo', 'demo2', 'GCPX', 'us-central10', 'ml-teams', 'hash-0123456789abc']);
    expect(messages(s)).toEqual(['demolition', 'ademo', 'demo2', 'GCPX', 'us-central10', 'ml-teams', 'hash-0123456789abc']);
  });

  it('templates string values only: keys, provider and scenario stay as they are', () => {
    const t = trace([step(0, { resources: { demo: desired(res('Network', { spec: { writeConnectionSecretToRef: { name: 'demo-kubeconfig' } } })) } })], {
      provider: 'demo',
      scenario: 'demo-scenario',
    });
    const s = skeleton(t);
    expect(s.provider).toBe('demo');
    expect(s.scenario).toBe('demo-scenario');
    expect(Object.keys(s.resources)).toEqual(['demo']);
    expect(s.resources.demo!.writes).toBe('{xr}-kubeconfig');
  });

  it('makeTemplater: empty values are ignored, regex characters are literal', () => {
    const template = makeTemplater({ xr: 'a.b', namespace: '', values: { empty: '', star: 'x*' } });
    expect(template('a.b axb x* xx')).toBe('{xr} axb {star} xx');
  });
});

// ---- canonical YAML -----------------------------------------------------------------------------------------------

describe('toCanonicalYaml', () => {
  const storageClass = res(
    'Object',
    {
      spec: {
        forProvider: { manifest: { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'modelplane-rwx' } } },
        providerConfigRef: { kind: 'ProviderConfig', name: 'demo' },
        managementPolicies: ['Observe', 'Create', 'Update', 'LateInitialize'],
        readiness: { policy: 'SuccessfulCreate' },
      },
    },
    'kubernetes.m.crossplane.io/v1alpha1',
  );
  const bodies: Record<string, JsonObject> = {
    network: res('Network'),
    cluster: res('Cluster', { spec: { writeConnectionSecretToRef: { name: 'demo-kubeconfig' }, providerConfigRef: { name: 'default', kind: 'ClusterProviderConfig' } } }),
    'nodepool-gpu': res('NodePool', { spec: { forProvider: { nodeConfig: { labels: { 'modelplane.ai/pool': 'gpu', 'modelplane.ai/gpu': 'nvidia-l4' } } } } }),
    'storage-class-rwx': storageClass,
  };
  const status = { secrets: [{ type: 'Kubeconfig', name: 'demo-kubeconfig', key: 'kubeconfig' }], cache: { storageClassName: 'modelplane-rwx' } };
  const requirements: Record<string, Selector> = {
    'gcp-provider-config': { apiVersion: 'gcp.m.upbound.io/v1beta1', kind: 'ClusterProviderConfig', matchName: 'default' },
    other: { apiVersion: 'v1', kind: 'Secret', matchName: 'x' },
  };

  /** The same trace, every object built in the given key order. */
  function build(order: string[], reverseInner = false): Trace {
    const flip = <T extends object>(value: T): T => (reverseInner ? (Object.fromEntries(Object.entries(value).reverse()) as T) : value);
    const resources = (ready: ReadyMark) => Object.fromEntries(order.map((key) => [key, desired(flip(bodies[key]!), ready)]));
    return trace([
      step(0, { resources: resources('Unspecified'), status: flip(status), requirements: flip(requirements), satisfied: ['gcp-provider-config'] }),
      step(1, { resources: resources('True'), status: flip(status), requirements: flip(requirements), satisfied: ['gcp-provider-config'], xrReady: true }),
    ]);
  }

  it('is stable: the same input twice gives the same bytes', () => {
    const a = toCanonicalYaml(skeleton(build(Object.keys(bodies))));
    const b = toCanonicalYaml(skeleton(build(Object.keys(bodies))));
    expect(a).toBe(b);
    expect(a.startsWith(`skeleton: ${SKELETON_VERSION}\nprovider: gke\nscenario: converge\n`)).toBe(true);
  });

  it('orders resources (and requirements, status) independently of the input insertion order', () => {
    const forward = toCanonicalYaml(skeleton(build(['network', 'cluster', 'nodepool-gpu', 'storage-class-rwx'])));
    const backward = toCanonicalYaml(skeleton(build(['storage-class-rwx', 'nodepool-gpu', 'cluster', 'network'], true)));
    expect(backward).toBe(forward);
    const keys = Object.keys((parse(forward) as { resources: object }).resources);
    expect(keys).toEqual(['cluster', 'network', 'nodepool-gpu', 'storage-class-rwx']);
  });

  it('round-trips: parsing the YAML gives the skeleton back', () => {
    const s = skeleton(build(Object.keys(bodies)));
    expect(parse(toCanonicalYaml(s))).toEqual(JSON.parse(JSON.stringify(s)));
  });

  it('puts short scalar lists and small scalar maps on one line, never wraps', () => {
    const text = toCanonicalYaml(skeleton(build(Object.keys(bodies))));
    expect(text).toContain('converged: {step: 1, xrReady: true}\n');
    expect(text).toContain('managementPolicies: [Observe, Create, Update, LateInitialize]\n');
    expect(text).toContain('labels: [modelplane.ai/gpu, modelplane.ai/pool]\n');
    expect(text).toContain('providerConfigRef: {kind: ClusterProviderConfig, name: default}\n');
    const long = skeleton(trace([step(0, { results: [{ severity: 'Normal', message: 'word '.repeat(60).trim() }] })]));
    const line = toCanonicalYaml(long).split('\n').find((l) => l.includes('word word'));
    expect(line).toContain('word '.repeat(59) + 'word');
  });
});

describe('skeletonize: labels and metadata', () => {
  it('finds node labels wherever the pool’s own labels sit, the adapter’s label fields as hints, and the resource’s own metadata templated', () => {
    const pool = res('NodePool', {
      metadata: { namespace: 'ml-team', labels: { 'demo-project/team': 'ml' }, annotations: { 'crossplane.io/external-name': 'demo-gpu' } },
      spec: {
        forProvider: {
          kubernetesLabels: [{ key: 'modelplane.ai/pool', value: 'gpu' }],
          extraLabels: { team: 'ml' },
          taints: [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }],
        },
      },
    });
    const t = trace([step(0, { resources: { 'nodepool-gpu': desired(pool, 'True') }, xrReady: true })]);
    const plain = skeleton(t).resources['nodepool-gpu']!;
    // The pool label says where the labels are, under any field; taints are {key, value} pairs too, but label nothing.
    expect(plain.labels).toEqual(['modelplane.ai/pool']);
    // Crossplane's own annotation acts (it names the cloud resource): behavior, apart from the style keys.
    expect(plain.metadata).toEqual({ namespace: '{namespace}', labels: ['{project}/team'], behaviorAnnotations: ['crossplane.io/external-name'] });
    // A label set without the pool's own labels is found where the adapter's hint points.
    const hinted = skeleton(t, { adapter: { roles: {}, values: GCP_VALUES, labelFields: ['extraLabels'] } }).resources['nodepool-gpu']!;
    expect(hinted.labels).toEqual(['modelplane.ai/pool', 'team']);
  });
});
