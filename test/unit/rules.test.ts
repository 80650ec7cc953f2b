/** Every contract rule on hand-built skeletons: it fires on a minimal bad one and stays quiet on a good one. */
import { describe, expect, it } from 'vitest';
import { checkRules, RULES } from '../../src/compare/rules/index.js';
import type { RuleContext } from '../../src/compare/rules/types.js';
import type { Scenario } from '../../src/config/types.js';
import type { ResourceSkeleton, Skeleton } from '../../src/skeleton/types.js';
import { cloud, goodSkeleton, scenarioOf } from '../helpers/fourth.js';

const rule = (id: string) => {
  const found = RULES.find((r) => r.id === id);
  if (!found) throw new Error(`no rule ${id}`);
  return found;
};

/** Subjects one rule reports for a skeleton in a scenario. */
const subjects = (id: string, context: RuleContext) =>
  rule(id)
    .check(context)
    .map((violation) => violation.subject)
    .sort();

/** goodSkeleton with one resource merged with `change`. */
function changed(key: string, change: Partial<ResourceSkeleton>, base: Skeleton = goodSkeleton('gke')): Skeleton {
  return { ...base, resources: { ...base.resources, [key]: { ...base.resources[key]!, ...change } } };
}

function without(key: string, base: Skeleton = goodSkeleton('gke')): Skeleton {
  const { [key]: _gone, ...resources } = base.resources;
  return { ...base, resources };
}

/** The good skeleton of a world where nothing becomes Ready: cloud resources unmarked, the others marked. */
function neverReady(): Skeleton {
  const base = goodSkeleton('gke', 'never-ready', { converged: { step: 2, xrReady: false } });
  for (const resource of Object.values(base.resources)) {
    if (resource.plane === 'cloud') Object.assign(resource, { ready: null, readyBy: null });
  }
  return base;
}

interface Case {
  /** A minimal bad context and the subjects it must yield. */
  bad: Array<{ what: string; context: RuleContext; subjects: string[]; alsoBreaks?: string[] }>;
  /** Good contexts where the rule must stay quiet. */
  quiet: Array<{ what: string; context: RuleContext }>;
}

const converge = scenarioOf('converge');
const good = (scenario: Scenario = converge): RuleContext => ({ skeleton: goodSkeleton('gke', scenario.name), scenario });
const customCredentials = scenarioOf('custom-credentials', { xr: { credentials: { kind: 'ProviderConfig', name: 'team-a' } } });
const credentialsLost = scenarioOf('credentials-lost', { then: [{ do: 'remove-credentials', steps: 3 }] });
const readyNone = scenarioOf('never-ready', { world: { ready: 'none' } });
const credentialsMissing = scenarioOf('credentials-missing', { world: { credentials: 'missing' } });

/** The good skeleton for custom-credentials: cloud resources on the XR's ProviderConfig team-a. */
function teamA(overrides: Parameters<typeof goodSkeleton>[2] = {}): Skeleton {
  const skeleton = goodSkeleton('gke', 'custom-credentials', {
    requirements: { 'gcp-provider-config': { apiVersion: 'gcp.m.upbound.io/v1beta1', kind: 'ProviderConfig', select: { name: 'team-a', namespace: '{namespace}' }, satisfied: true } },
    ...overrides,
  });
  for (const resource of Object.values(skeleton.resources)) {
    if (resource.plane === 'cloud') resource.providerConfigRef = { kind: 'ProviderConfig', name: 'team-a' };
  }
  return skeleton;
}

const CASES: Record<string, Case> = {
  'readiness-coverage': {
    bad: [{ what: 'a resource never marked ready', context: { skeleton: changed('network', { ready: null, readyBy: null }), scenario: converge }, subjects: ['network'] }],
    quiet: [
      { what: 'everything marked', context: good() },
      { what: 'a world where nothing is Ready', context: { skeleton: changed('network', { ready: null, readyBy: null }), scenario: readyNone } },
      { what: 'an unmarked resource the world dropped', context: { skeleton: changed('network', { ready: null, readyBy: null, dropped: 2 }), scenario: converge } },
      { what: 'a run that never converged (xr-converges says so)', context: { skeleton: { ...changed('network', { ready: null, readyBy: null }), converged: null }, scenario: converge } },
    ],
  },
  'no-early-ready': {
    bad: [{ what: 'a cloud resource marked ready the world never reported Ready', context: { skeleton: changed('cluster', { ready: 0, readyBy: 'composed' }, neverReady()), scenario: readyNone }, subjects: ['cluster'] }],
    quiet: [
      { what: 'only in-cluster resources marked', context: { skeleton: neverReady(), scenario: readyNone } },
      { what: 'a world where everything is Ready', context: good() },
    ],
  },
  'xr-converges': {
    bad: [
      { what: 'no fixpoint', context: { skeleton: goodSkeleton('gke', 'converge', { converged: null }), scenario: converge }, subjects: ['converged'] },
      { what: 'a fixpoint with the XR not Ready', context: { skeleton: goodSkeleton('gke', 'converge', { converged: { step: 4, xrReady: false } }), scenario: converge }, subjects: ['converged'] },
    ],
    quiet: [
      { what: 'a Ready fixpoint', context: good() },
      { what: 'credentials missing', context: { skeleton: goodSkeleton('gke', 'credentials-missing', { converged: { step: 2, xrReady: false } }), scenario: credentialsMissing } },
      { what: 'a world where nothing is Ready', context: { skeleton: neverReady(), scenario: readyNone } },
    ],
  },
  'kubeconfig-published': {
    bad: [
      {
        what: 'no Kubeconfig entry',
        context: { skeleton: goodSkeleton('gke', 'converge', { status: { appears: 0, secrets: [], cache: { storageClassName: 'modelplane-rwx', appears: 1 } } }), scenario: converge },
        subjects: ['status.secrets'],
        // Without a published kubeconfig, no ProviderConfig can read it either.
        alsoBreaks: ['provider-configs-read-kubeconfig'],
      },
      { what: 'an entry nothing writes', context: { skeleton: changed('cluster', { writes: '{xr}-other' }), scenario: converge }, subjects: ['status.secrets'] },
    ],
    quiet: [
      { what: 'the cluster writes the published Secret', context: good() },
      { what: 'a namespaced write of the published Secret', context: { skeleton: changed('cluster', { writes: '{namespace}/{xr}-kubeconfig' }), scenario: converge } },
    ],
  },
  'provider-configs-read-kubeconfig': {
    bad: [
      { what: 'no Helm ProviderConfig', context: { skeleton: without('provider-config-helm'), scenario: converge }, subjects: ['provider-config-helm'] },
      { what: 'a ProviderConfig reading another key', context: { skeleton: changed('provider-config-kubernetes', { reads: ['{namespace}/{xr}-kubeconfig:value'] }), scenario: converge }, subjects: ['provider-config-kubernetes'] },
      { what: 'a ProviderConfig reading nothing', context: { skeleton: changed('provider-config-helm', { reads: undefined }), scenario: converge }, subjects: ['provider-config-helm'] },
    ],
    quiet: [{ what: 'both read the published kubeconfig', context: good() }],
  },
  'cache-storage-class': {
    bad: [
      { what: 'no status.cache', context: { skeleton: goodSkeleton('gke', 'converge', { status: { appears: 0, secrets: goodSkeleton('gke').status.secrets } }), scenario: converge }, subjects: ['status.cache'] },
      { what: 'a class name no Object composes', context: { skeleton: changed('storage-class-rwx', { manifest: 'StorageClass/other' }), scenario: converge }, subjects: ['status.cache'] },
    ],
    quiet: [
      { what: 'the published class is composed', context: good() },
      { what: 'a world where nothing is Ready', context: { skeleton: without('storage-class-rwx', neverReady()), scenario: readyNone } },
    ],
  },
  'in-cluster-no-delete': {
    bad: [
      { what: 'policies ["*"]', context: { skeleton: changed('storage-class-rwx', { managementPolicies: ['*'] }), scenario: converge }, subjects: ['storage-class-rwx'] },
      { what: 'policies with Delete', context: { skeleton: changed('storage-class-rwx', { managementPolicies: ['Observe', 'Create', 'Delete'] }), scenario: converge }, subjects: ['storage-class-rwx'] },
      { what: 'no policies (the default is all)', context: { skeleton: changed('storage-class-rwx', { managementPolicies: undefined }), scenario: converge }, subjects: ['storage-class-rwx'] },
    ],
    quiet: [
      { what: 'policies without Delete', context: good() },
      // ProviderConfigs are not Objects: they carry no management policies.
      { what: 'ProviderConfigs without policies', context: { skeleton: changed('provider-config-helm', { managementPolicies: undefined }), scenario: converge } },
    ],
  },
  'cloud-credentials-ref': {
    bad: [
      { what: 'another ProviderConfig', context: { skeleton: changed('network', { providerConfigRef: { kind: 'ClusterProviderConfig', name: 'other' } }), scenario: converge }, subjects: ['network'] },
      { what: 'no ProviderConfig reference', context: { skeleton: changed('network', { providerConfigRef: undefined }), scenario: converge }, subjects: ['network'] },
      {
        what: 'the default where the XR names team-a',
        context: { skeleton: goodSkeleton('gke', 'custom-credentials'), scenario: customCredentials },
        subjects: ['cluster', 'network', 'nodepool-gpu', 'nodepool-system', 'subnet'],
      },
    ],
    quiet: [
      { what: 'every cloud resource on the default', context: good() },
      {
        what: "every cloud resource on the XR's ProviderConfig (in-cluster ones on their own)",
        context: { skeleton: teamA(), scenario: customCredentials },
      },
    ],
  },
  'namespaced-requirement': {
    bad: [
      {
        what: 'a ProviderConfig requirement without namespace',
        context: {
          skeleton: teamA({ requirements: { 'gcp-provider-config': { apiVersion: 'gcp.m.upbound.io/v1beta1', kind: 'ProviderConfig', select: { name: 'team-a' }, satisfied: false } } }),
          scenario: customCredentials,
        },
        subjects: ['requirements.gcp-provider-config'],
      },
    ],
    quiet: [
      {
        what: 'a ProviderConfig requirement in the namespace',
        context: { skeleton: teamA(), scenario: customCredentials },
      },
      { what: 'a cluster-scoped ClusterProviderConfig requirement', context: good() },
    ],
  },
  'nothing-dropped': {
    bad: [
      { what: 'a key dropped while converging with credentials present', context: { skeleton: changed('network', { dropped: 2 }), scenario: converge }, subjects: ['network'] },
      {
        what: 'a node pool dropped when the cluster turns unready',
        context: {
          skeleton: goodSkeleton('gke', 'cluster-regresses', { then: [{ do: 'unready', role: 'cluster', dropped: ['nodepool-gpu'], unmarked: ['cluster'], statusKept: true, xrReady: false, events: [] }] }),
          scenario: scenarioOf('cluster-regresses', { then: [{ do: 'unready', role: 'cluster', steps: 3 }] }),
        },
        subjects: ['nodepool-gpu'],
      },
    ],
    quiet: [
      { what: 'nothing dropped', context: good() },
      {
        what: 'drops after lost credentials (the credentials rule owns them)',
        context: {
          skeleton: goodSkeleton('gke', 'credentials-lost', { then: [{ do: 'remove-credentials', dropped: ['network'], unmarked: [], statusKept: true, xrReady: true, events: [] }] }),
          scenario: credentialsLost,
        },
      },
      { what: 'drops while credentials are missing (the credentials rule owns them)', context: { skeleton: changed('network', { dropped: 2 }, goodSkeleton('gke', 'credentials-missing')), scenario: credentialsMissing } },
    ],
  },
  'credentials-loss-drops-nothing': {
    bad: [
      {
        what: 'a key dropped after the credentials disappear',
        context: {
          skeleton: goodSkeleton('gke', 'credentials-lost', { then: [{ do: 'remove-credentials', dropped: ['network'], unmarked: ['network'], statusKept: true, xrReady: true, events: [] }] }),
          scenario: credentialsLost,
        },
        subjects: ['network'],
      },
      { what: 'a key dropped while converging', context: { skeleton: changed('network', { dropped: 2 }, goodSkeleton('gke', 'credentials-missing')), scenario: credentialsMissing }, subjects: ['network'] },
    ],
    quiet: [
      {
        what: 'losing credentials drops nothing',
        context: {
          skeleton: goodSkeleton('gke', 'credentials-lost', {
            then: [{ do: 'remove-credentials', dropped: [], unmarked: [], statusKept: true, xrReady: true, events: [{ step: 3, severity: 'Normal', message: 'Waiting for {cloud} ClusterProviderConfig default' }] }],
          }),
          scenario: credentialsLost,
        },
      },
    ],
  },
  'no-empty-secret-ref': {
    bad: [
      {
        what: 'a status entry without key',
        context: {
          skeleton: goodSkeleton('gke', 'converge', {
            status: {
              ...goodSkeleton('gke').status,
              secrets: [...goodSkeleton('gke').status.secrets, { type: 'GoogleApplicationCredentials', name: '{xr}-gcp-credentials', key: '', appears: 0 }],
            },
          }),
          scenario: converge,
        },
        subjects: ['status.secrets'],
      },
      { what: 'a read without Secret name', context: { skeleton: changed('cluster', { reads: ['{namespace}/:password'] }), scenario: converge }, subjects: ['cluster'] },
      { what: 'a read without key', context: { skeleton: changed('cluster', { reads: ['{namespace}/{xr}-admin:'] }), scenario: converge }, subjects: ['cluster'] },
    ],
    quiet: [
      { what: 'complete entries and reads', context: good() },
      { what: 'a read without namespace', context: { skeleton: changed('provider-config-helm', { reads: ['{xr}-kubeconfig:kubeconfig'] }), scenario: converge } },
    ],
  },
  'deterministic-output': {
    bad: [{ what: 'two renders differ', context: { ...good(), nondeterministic: 'step 1, resource cluster' }, subjects: ['render'] }],
    quiet: [{ what: 'two renders agree', context: good() }],
  },
  'region-from-intent': {
    bad: [{ what: 'a subnet that keeps the old region when the XR moves', context: { ...good(), spec: { region: { value: 'us-central1', probe: 'drift-probe-region', kept: { subnet: ['spec.forProvider.region'] } } } }, subjects: ['subnet'] }],
    quiet: [
      { what: 'every resource follows the XR to the probe region', context: { ...good(), spec: { region: { value: 'us-central1', probe: 'drift-probe-region', kept: {} } } } },
      { what: 'a cell the probe did not run in', context: good() },
    ],
  },
  'invalid-spec-fatal': {
    bad: [{ what: 'an invalid spec answered with an empty desired state', context: { ...good(), spec: { invalidSpec: { probe: 'p', stopped: false, composed: 0 } } }, subjects: ['fatal'] }],
    quiet: [
      { what: 'an invalid spec composed anyway (left to the XRD)', context: { ...good(), spec: { invalidSpec: { probe: 'p', stopped: false, composed: 9 } } } },
      { what: 'a Fatal result', context: { ...good(), spec: { invalidSpec: { probe: 'p', stopped: true, composed: 0 } } } },
      { what: 'a cell the probe did not run in', context: good() },
    ],
  },
  'swallowed-fact': {
    bad: [
      {
        what: 'an except that catches everything around an observed read',
        context: { ...good(), swallowed: [{ file: 'function/composer.py', line: 12, qualified: 'Composer.compose_identity', reads: ['_observed'], place: 'providers/gke/function/composer.py:12' }] },
        subjects: ['Composer.compose_identity'],
      },
    ],
    quiet: [{ what: 'no swallowed error in the source', context: good() }],
  },
  'key-naming': {
    bad: [
      { what: 'a key that is not kebab-case', context: { skeleton: { ...without('network'), resources: { ...without('network').resources, Network_Main: cloud('network', 'Network') } }, scenario: converge }, subjects: ['Network_Main'] },
      {
        what: 'a node-pool key without the pool name',
        context: { skeleton: { ...without('nodepool-gpu'), resources: { ...without('nodepool-gpu').resources, 'nodepool-accelerators': goodSkeleton('gke').resources['nodepool-gpu']! } }, scenario: converge },
        subjects: ['nodepool-accelerators'],
      },
    ],
    quiet: [
      { what: 'kebab-case keys, pools named by their pool', context: good() },
      {
        what: 'another node-pool prefix',
        context: { skeleton: { ...without('nodepool-gpu'), resources: { ...without('nodepool-gpu').resources, 'node-pool-gpu': goodSkeleton('gke').resources['nodepool-gpu']! } }, scenario: converge },
      },
    ],
  },
};

describe('contract rules', () => {
  it('has a case here for every rule drift ships', () => {
    expect(Object.keys(CASES).sort()).toEqual(RULES.map((r) => r.id).sort());
  });

  it('the good skeleton passes every rule in every scenario it is built for', () => {
    for (const context of [good(), { skeleton: neverReady(), scenario: readyNone }]) {
      expect(checkRules(context).map((finding) => finding.id)).toEqual([]);
    }
  });

  for (const [id, { bad, quiet }] of Object.entries(CASES)) {
    describe(id, () => {
      for (const { what, context, subjects: expected, alsoBreaks = [] } of bad) {
        it(`fires on ${what}`, () => {
          expect(subjects(id, context)).toEqual(expected);
          // Only this rule (and what necessarily follows): each bad skeleton breaks one thing.
          const fired = checkRules(context);
          expect([...new Set(fired.map((finding) => finding.facet!))].sort()).toEqual([id, ...alsoBreaks].sort());
        });
      }
      for (const { what, context } of quiet) {
        it(`stays quiet on ${what}`, () => {
          expect(subjects(id, context)).toEqual([]);
        });
      }
    });
  }
});

describe('checkRules', () => {
  it('turns each violation into a contract finding with a stable id', () => {
    const skeleton = changed('storage-class-rwx', { managementPolicies: ['*'] });
    expect(checkRules({ skeleton, scenario: converge })).toEqual([
      {
        id: 'rule:in-cluster-no-delete:gke:storage-class-rwx',
        type: 'rule',
        class: 'contract',
        provider: 'gke',
        scenario: 'converge',
        subject: 'storage-class-rwx',
        facet: 'in-cluster-no-delete',
        message: 'in-cluster-no-delete: storage-class-rwx has management policies ["*"], which include Delete',
        hint: `${rule('in-cluster-no-delete').examples.fix} Why: ${rule('in-cluster-no-delete').rationale}`,
      },
    ]);
  });

  it('reports every violation of every rule, each rule in its own finding', () => {
    const skeleton = changed('storage-class-rwx', { managementPolicies: ['*'] }, changed('network', { ready: null, readyBy: null, providerConfigRef: undefined }));
    expect(checkRules({ skeleton, scenario: converge }).map((finding) => finding.id)).toEqual([
      'rule:readiness-coverage:gke:network',
      'rule:in-cluster-no-delete:gke:storage-class-rwx',
      'rule:cloud-credentials-ref:gke:network',
    ]);
  });

  it('gives every rule an id, a description and a rationale', () => {
    for (const r of RULES) {
      expect(r.id).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(r.description.length).toBeGreaterThan(10);
      expect(r.rationale.length).toBeGreaterThan(10);
    }
    expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
  });
});

describe('gaps found by these tests, now closed', () => {
  // src/compare/rules/provider-configs-read-kubeconfig.ts accepts `read.endsWith('/' + wanted)`:
  // any namespace passes, though the kubeconfig Secret is written in the XR's namespace ({namespace}).
  it('provider-configs-read-kubeconfig: a ProviderConfig reading the Secret from another namespace breaks it', () => {
    const skeleton = changed('provider-config-helm', { reads: ['crossplane-system/{xr}-kubeconfig:kubeconfig'] });
    expect(subjects('provider-configs-read-kubeconfig', { skeleton, scenario: scenarioOf(skeleton.scenario) })).toEqual(['provider-config-helm']);
  });

  // No rule looks at `then` drops of perturbations other than remove-credentials, although
  // scenarios/cluster-regresses.yaml says "nothing may be dropped" when the cluster turns unready.
  it('a node pool dropped when the cluster turns unready is a contract finding', () => {
    const scenario = scenarioOf('cluster-regresses', { then: [{ do: 'unready', role: 'cluster', steps: 3 }] });
    const skeleton = goodSkeleton('gke', 'cluster-regresses', {
      then: [{ do: 'unready', role: 'cluster', dropped: ['nodepool-gpu'], unmarked: ['cluster'], statusKept: true, xrReady: false, events: [] }],
    });
    expect(checkRules({ skeleton, scenario }).map((finding) => finding.subject)).toContain('nodepool-gpu');
  });
});
