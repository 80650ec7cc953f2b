/**
 * A throwaway drift project with a FOURTH provider, `gcp2`: a copy of providers/gke under another
 * name, optionally with one seeded change, beside three of the bundled providers (PEERS). Its goldens are written first (`drift update --provider
 * gcp2`), so every finding `drift diff` reports afterwards comes from comparing providers with each
 * other (divergences) or with the contract (rules), never from goldens.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import path from 'node:path';
import type { Scenario } from '../../src/config/types.js';
import { SKELETON_VERSION, type ResourceSkeleton, type Skeleton } from '../../src/skeleton/types.js';
import type { Finding } from '../../src/compare/findings.js';
import type { Report } from '../../src/report/model.js';
import { flattened } from './consequences.js';
import { runDrift, type DriftRun } from './drift.js';
import { copyProject, REPO } from './project.js';

export const FOURTH = 'gcp2';
/** The bundled providers gcp2 joins (test/fixtures/across/accepted.yaml holds their accepted entries). */
export const PEERS = ['eks', 'gke', 'nebius'];

/** One exact text replacement; it must occur exactly once, so a seed can never silently miss. */
export interface Edit {
  search: string;
  replace: string;
}

/** A seeded change to gcp2: edits of function/composer.py and of provider.yaml. */
export interface Seed {
  composer?: Edit[];
  providerYaml?: Edit[];
}

/** `text` with `edit` applied; throws unless `edit.search` occurs exactly once and the text changes. */
export function applyEdit(text: string, edit: Edit, where: string): string {
  const found = text.split(edit.search).length - 1;
  if (found !== 1) throw new Error(`${where}: expected exactly one occurrence of ${JSON.stringify(edit.search)}, found ${found}; the code it targets has changed, update the seed`);
  const after = text.replace(edit.search, () => edit.replace);
  if (after === text) throw new Error(`${where}: the edit did not change the text`);
  return after;
}

function editFile(file: string, edits: Edit[], where: string): void {
  let text = readFileSync(file, 'utf8');
  for (const edit of edits) text = applyEdit(text, edit, where);
  writeFileSync(file, text);
}

/** The seeded changes the cross-provider tests use, each one a deliberate contract or style break. */
export const SEEDS = {
  /** User node pools keyed `node-pool-<pool>` (the system pool stays `nodepool-system`); drift infers their role, no adapter map needed. */
  nodePoolKeys: {
    composer: [
      {
        search: `key = f"nodepool-{pool['name']}"`,
        replace: `key = f"nodepool-{pool['name']}" if pool is SYSTEM_POOL else f"node-pool-{pool['name']}"`,
      },
    ],
  },
  /** No Helm ProviderConfig is composed. */
  noHelmProviderConfig: {
    composer: [{ search: '            ("provider-config-helm", HELM),\n', replace: '' }],
  },
  /** The node service account is never marked READY_TRUE. */
  serviceAccountNeverReady: {
    composer: [
      {
        search: '        for key in sorted(self.desired):\n',
        replace: '        for key in sorted(self.desired):\n            if key == "service-account":\n                continue\n',
      },
    ],
  },
  /** The StorageClass Object may delete: management policies ["*"]. */
  storageClassDeletes: {
    composer: [{ search: '"managementPolicies": ["Observe", "Create", "Update", "LateInitialize"]', replace: '"managementPolicies": ["*"]' }],
  },
  /** The network is desired only while the required ProviderConfig is present. */
  networkNeedsCredentials: {
    composer: [
      {
        search: '        self._desire("network", self._cloud(COMPUTE, "Network", {"autoCreateSubnetworks": False}))\n',
        replace: '        if self.provider_config is not None:\n            self._desire("network", self._cloud(COMPUTE, "Network", {"autoCreateSubnetworks": False}))\n',
      },
    ],
  },
  /** User node pools wait for the cluster's Ready condition instead of its existence (the system pool keeps waiting for existence). */
  poolsGatedOnClusterReady: {
    composer: [
      {
        search: '            if "cluster" in self.observed_resources or key in self.observed_resources:\n',
        replace:
          '            cluster_exists = "cluster" in self.observed_resources\n' +
          '            gate = cluster_exists if pool is SYSTEM_POOL else self._observed_ready("cluster")\n' +
          '            if gate or key in self.observed_resources:\n',
      },
    ],
  },
  /** Node pools are composed only while the cluster is observed: a lost cluster takes its pools with it. */
  poolsNotKeptOnClusterLoss: {
    composer: [
      {
        search: '            if "cluster" in self.observed_resources or key in self.observed_resources:\n',
        replace: '            if "cluster" in self.observed_resources:\n',
      },
    ],
  },
  /** The IAM binding is left out once the ProviderConfig's credentials are not a Secret: unusable credentials drop a consumer. */
  bindingDroppedOnUnusableCredentials: {
    composer: [
      {
        search: '        if not (member and project):\n            return\n',
        replace:
          '        if not (member and project):\n            return\n' +
          '        source = (self.provider_config or {}).get("spec", {}).get("credentials", {}).get("source")\n' +
          '        if self.provider_config is not None and source != "Secret":\n' +
          '            return\n',
      },
    ],
  },
  /** A core ConfigMap composed directly (no ProviderConfig), marked ready the step it is composed: a legitimate "neither" object. */
  coreConfigMap: {
    composer: [
      {
        search: 'READY_WHEN_COMPOSED = ("provider-config-helm", "provider-config-kubernetes", "storage-class-rwx")\n',
        replace: 'READY_WHEN_COMPOSED = ("provider-config-helm", "provider-config-kubernetes", "storage-class-rwx", "settings")\n',
      },
      {
        search: '    def compose_storage_class(self) -> None:\n',
        replace:
          '    def compose_settings(self) -> None:\n' +
          '        """A ConfigMap of the cluster\'s settings."""\n' +
          '        self._desire("settings", {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": f"{self.name}-settings"}, "data": {"cloud": "gcp"}})\n\n' +
          '    def compose_storage_class(self) -> None:\n',
      },
      { search: '        self.compose_storage_class()\n', replace: '        self.compose_storage_class()\n        self.compose_settings()\n' },
    ],
  },
  /** A Helm Release (the GPU operator) applied through the per-cluster Helm ProviderConfig, with Delete among its management policies. */
  releaseDeletes: {
    composer: [
      {
        search: '    def compose_storage_class(self) -> None:\n',
        replace:
          '    def compose_gpu_operator(self) -> None:\n' +
          '        """The GPU operator, installed with Helm on the workload cluster."""\n' +
          '        self._desire("gpu-operator", {"apiVersion": HELM, "kind": "Release", "metadata": {"name": f"{self.name}-gpu-operator"}, "spec": {\n' +
          '            "forProvider": {"chart": {"name": "gpu-operator", "repository": "https://helm.ngc.nvidia.com/nvidia"}},\n' +
          '            "providerConfigRef": {"kind": "ProviderConfig", "name": self.name},\n' +
          '            "managementPolicies": ["Observe", "Create", "Update", "Delete"]}})\n\n' +
          '    def compose_storage_class(self) -> None:\n',
      },
      { search: '        self.compose_storage_class()\n', replace: '        self.compose_storage_class()\n        self.compose_gpu_operator()\n' },
    ],
  },
  /** The requirement never carries the XR's namespace, even for a namespaced ProviderConfig. */
  requirementWithoutNamespace: {
    composer: [{ search: '            namespace=self.namespace if kind == "ProviderConfig" else None,\n', replace: '            namespace=None,\n' }],
  },
} satisfies Record<string, Seed>;

/** A finding and the report as `drift diff --format json` writes them. */
export type ReportFinding = Finding;
export type JsonReport = Report;

export interface FourthProject {
  dir: string;
  acceptedFile: string;
  /** Runs the built CLI in the project; never rejects. CI is unset unless `env` sets it. */
  drift(args: string[], env?: Record<string, string>): Promise<DriftRun>;
  /** `drift diff --format json` (optionally narrowed to scenarios), with its parsed report. */
  diff(scenarios?: string[], env?: Record<string, string>): Promise<DriftRun & { report: JsonReport }>;
  remove(): void;
}

export interface FourthOptions {
  seed?: Seed;
  /** Scenarios whose gcp2 goldens to write (all when absent); narrow diffs need only theirs. */
  scenarios?: string[];
  /**
   * Extend goldens/accepted.yaml's GKE-only acceptance (`providers: [gke]`) to gcp2, which is GKE
   * under another name: the reason given for GKE holds for it word for word. With gcp2 beside gke
   * that facet is two against two, a split, so the entry pins the split's two ways instead.
   * Default true.
   */
  gcp2LikeGke?: boolean;
  prefix?: string;
}

let reports = 0;

/** Builds the temp project, applies the seed, writes gcp2's goldens. Call `remove()` when done. */
export async function buildFourth(options: FourthOptions = {}): Promise<FourthProject> {
  const { dir, remove } = copyProject({ prefix: options.prefix ?? 'drift-fourth-' });
  try {
    // gcp2 is judged against a fixed set of peers with their own accepted entries, so what each
    // seed must cause stays the same when the bundled set grows: a copy of gke adds a vote to
    // gke's side, turning the bundled providers' 3-2 splits into conventions that blame them.
    for (const name of readdirSync(path.join(dir, 'providers'))) {
      if (!existsSync(path.join(dir, 'providers', name, 'provider.yaml')) || PEERS.includes(name)) continue;
      rmSync(path.join(dir, 'providers', name), { recursive: true, force: true });
      rmSync(path.join(dir, 'goldens', name), { recursive: true, force: true });
    }
    cpSync(path.join(REPO, 'test/fixtures/across/accepted.yaml'), path.join(dir, 'goldens', 'accepted.yaml'));

    const fourth = path.join(dir, 'providers', FOURTH);
    cpSync(path.join(dir, 'providers', 'gke'), fourth, { recursive: true });
    if (existsSync(path.join(dir, 'goldens', FOURTH))) throw new Error(`goldens/${FOURTH} already exists in the repository`);
    editFile(path.join(fourth, 'provider.yaml'), [{ search: '\nname: gke\n', replace: `\nname: ${FOURTH}\n` }, ...(options.seed?.providerYaml ?? [])], `providers/${FOURTH}/provider.yaml`);
    if (options.seed?.composer?.length) {
      editFile(path.join(fourth, 'function', 'composer.py'), options.seed.composer, `providers/${FOURTH}/function/composer.py`);
      // A seeded behaviour change is written in the house style, so only its behaviour differs.
      const format = spawnSync(path.join(REPO, '.venv/bin/ruff'), ['format', '--quiet', path.join(fourth, 'function', 'composer.py')]);
      if (format.status !== 0) throw new Error(`ruff format of the seeded providers/${FOURTH}/function/composer.py failed:\n${String(format.stderr)}`);
    }
    const acceptedFile = path.join(dir, 'goldens', 'accepted.yaml');
    if (options.gcp2LikeGke !== false) {
      const ways = ['    ways:', `      - {providers: [${FOURTH}, gke], scenarios: [credentials-missing], value: true}`, '      - {providers: [eks, nebius], scenarios: [credentials-missing], value: false}', ''].join('\n');
      editFile(acceptedFile, [{ search: '    providers: [gke]\n', replace: ways }], 'goldens/accepted.yaml');
    }

    const scenarioArgs = (options.scenarios ?? []).flatMap((name) => ['--scenario', name]);
    const update = await runDrift(['update', '--provider', FOURTH, ...scenarioArgs], dir);
    if (update.exitCode !== 0) throw new Error(`drift update --provider ${FOURTH} exited ${update.exitCode}:\n${update.stdout}${update.stderr}`);

    return {
      dir,
      acceptedFile,
      drift: (args, env) => runDrift(args, dir, env),
      async diff(scenarios = [], env = {}) {
        const output = path.join(dir, `report-${(reports += 1)}.json`);
        const run = await runDrift(['diff', '--format', 'json', '--output', output, ...scenarios.flatMap((name) => ['--scenario', name])], dir, env);
        if (!existsSync(output)) throw new Error(`drift diff wrote no report (exit ${run.exitCode}):\n${run.stdout}${run.stderr}`);
        // What each seed is found as, one finding each: causes are pinned by test/cli/causes.test.ts.
        return { ...run, report: flattened(JSON.parse(readFileSync(output, 'utf8')) as JsonReport) };
      },
      remove,
    };
  } catch (error) {
    remove();
    throw error;
  }
}

/** Finding ids, sorted: the precise thing to assert. */
export const ids = (findings: ReportFinding[]) => findings.map((finding) => finding.id).sort();

// ---- hand-built skeletons for the pure tests (test/unit/cross.test.ts, test/unit/rules.test.ts) ----


export const GCP_CONTAINER = 'container.gcp.m.upbound.io/v1beta1';
export const GCP_COMPUTE = 'compute.gcp.m.upbound.io/v1beta1';
export const K8S_OBJECTS = 'kubernetes.m.crossplane.io/v1alpha1';
export const HELM = 'helm.m.crossplane.io/v1beta1';
export const KUBECONFIG_READ = '{namespace}/{xr}-kubeconfig:kubeconfig';
export const ORPHAN_POLICIES = ['Observe', 'Create', 'Update', 'LateInitialize'];

/** A cloud resource that appears at step 0 and is marked ready once observed Ready (step 1). */
export function cloud(role: string, kind: string, extra: Partial<ResourceSkeleton> = {}, apiVersion = GCP_COMPUTE): ResourceSkeleton {
  return { role, plane: 'cloud', apiVersion, kind, appears: 0, ready: 1, readyBy: 'observed', providerConfigRef: { kind: 'ClusterProviderConfig', name: 'default' }, ...extra };
}

/** An in-cluster resource (applied through the workload cluster's ProviderConfig), marked ready the step it is composed. */
export function inCluster(role: string, apiVersion: string, kind: string, extra: Partial<ResourceSkeleton> = {}): ResourceSkeleton {
  return { role, plane: 'in-cluster', apiVersion, kind, appears: 0, ready: 0, readyBy: 'composed', ...extra };
}

/** A ProviderConfig the function composes for the workload cluster: neither cloud nor in-cluster, marked ready on compose. */
export function composedProviderConfig(role: string, apiVersion: string, extra: Partial<ResourceSkeleton> = {}): ResourceSkeleton {
  return { role, plane: 'neither', apiVersion, kind: 'ProviderConfig', appears: 0, ready: 0, readyBy: 'composed', ...extra };
}

/**
 * A skeleton every contract rule accepts in a scenario with credentials present and everything
 * Ready: GKE-shaped, with one user pool `gpu`. `resources` replaces or adds keys (undefined removes one).
 */
export function goodSkeleton(provider: string, scenario = 'converge', overrides: Partial<Omit<Skeleton, 'resources'>> & { resources?: Record<string, ResourceSkeleton | undefined> } = {}): Skeleton {
  const { resources: resourceOverrides, ...rest } = overrides;
  const resources: Record<string, ResourceSkeleton | undefined> = {
    cluster: cloud('cluster', 'Cluster', { writes: '{xr}-kubeconfig' }, GCP_CONTAINER),
    network: cloud('network', 'Network'),
    'nodepool-gpu': cloud('node-pool', 'NodePool', { appears: 1, ready: 2, gatedOn: ['cluster.exists'], labels: ['modelplane.ai/gpu', 'modelplane.ai/pool'] }, GCP_CONTAINER),
    'nodepool-system': cloud('system-pool', 'NodePool', { appears: 1, ready: 2, gatedOn: ['cluster.exists'], labels: ['modelplane.ai/pool'] }, GCP_CONTAINER),
    'provider-config-helm': composedProviderConfig('provider-config-helm', HELM, { reads: [KUBECONFIG_READ] }),
    'provider-config-kubernetes': composedProviderConfig('provider-config-kubernetes', K8S_OBJECTS, { reads: [KUBECONFIG_READ] }),
    'storage-class-rwx': inCluster('cache-storage-class', K8S_OBJECTS, 'Object', {
      appears: 1,
      ready: 1,
      gatedOn: ['network.external-name'],
      providerConfigRef: { kind: 'ProviderConfig', name: '{xr}' },
      managementPolicies: [...ORPHAN_POLICIES],
      readinessPolicy: 'SuccessfulCreate',
      manifest: 'StorageClass/modelplane-rwx',
    }),
    subnet: cloud('subnet', 'Subnetwork'),
    ...resourceOverrides,
  };
  return {
    skeleton: SKELETON_VERSION,
    provider,
    scenario,
    converged: { step: 2, xrReady: true },
    requirements: {
      'gcp-provider-config': { apiVersion: 'gcp.m.upbound.io/v1beta1', kind: 'ClusterProviderConfig', select: { name: 'default' }, satisfied: true },
    },
    status: {
      appears: 0,
      secrets: [{ type: 'Kubeconfig', name: '{xr}-kubeconfig', key: 'kubeconfig', appears: 0 }],
      cache: { storageClassName: 'modelplane-rwx', appears: 1 },
    },
    events: [],
    then: [],
    ...rest,
    resources: Object.fromEntries(Object.entries(resources).filter((entry): entry is [string, ResourceSkeleton] => entry[1] !== undefined).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
}

/** A scenario as loadScenario returns it: one user pool `gpu`, credentials present, everything Ready. */
export function scenarioOf(name = 'converge', overrides: { xr?: Partial<Scenario['xr']>; world?: Partial<Scenario['world']>; then?: Scenario['then']; ablate?: boolean } = {}): Scenario {
  return {
    name,
    file: `scenarios/${name}.yaml`,
    description: name,
    xr: { name: 'demo', namespace: 'ml-team', nodePools: [{ name: 'gpu', nodeCount: 1 }], ...overrides.xr },
    world: { credentials: 'present', ready: 'all', ...overrides.world },
    then: overrides.then ?? [],
    ablate: overrides.ablate ?? false,
  };
}
