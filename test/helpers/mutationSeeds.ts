/**
 * The mutation suite's seeds: drifts seeded into the five bundled providers, each with the findings it
 * must raise (test/cli/mutations.test.ts), and the copy of the project each is judged in. Shared with
 * test/cli/expect-loop.test.ts, which checks that drift expect names the same findings.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { applyEdit, SEEDS as ACROSS_SEEDS, type Edit } from './fourth.js';
import { copyProject, REPO, type ProjectCopy } from './project.js';

export const PROVIDERS = ['aks', 'eks', 'gke', 'nebius', 'vultr'] as const;
export type Provider = (typeof PROVIDERS)[number];

export interface MutationSeed {
  provider: Provider;
  /** The drift, in the words of issue 10's "Must show". */
  drift: string;
  /** Edits of providers/<provider>/function/<file>, each of which must apply exactly once. */
  composer: Edit[];
  /** The seeded file under providers/<provider>/function/, when not composer.py (the servicer, fn.py). */
  file?: string;
  /** The scenarios that show it: each seed renders only these. */
  scenarios: string[];
  /** New-provider mode: every finding, by id (a provider without goldens gets a note, not golden-missing). */
  expected: string[];
  /**
   * Full mode: cross-provider findings that must be among the run's, beside the golden's: a provider
   * that leaves the way an accepted split pins for it is named (src/compare/pinned.ts).
   */
  full?: string[];
}

const NODE_POOL_LOOP = '            if "cluster" in self.observed_resources or key in self.observed_resources:\n';
const UNUSABLE_CREDENTIALS =
  '        source = (self.provider_config or {}).get("spec", {}).get("credentials", {}).get("source")\n' +
  '        if self.provider_config is not None and source != "Secret":\n' +
  '            return\n';

const SYSTEM_POOL_LOOP = '        for pool in [SYSTEM_POOL, *self.pools]:\n';
const SYSTEM_POOL_LOOP_WITHOUT = '        for pool in self.pools:\n';

export const SEEDS: MutationSeed[] = [
  {
    provider: 'aks',
    drift: "pools gated on the cluster's Ready condition",
    composer: [{ search: NODE_POOL_LOOP, replace: '            if self._observed_ready("cluster") or key in self.observed_resources:\n' }],
    scenarios: ['converge'],
    // The gate decided by a helper (_observed_ready) where the others test the observed keys inline: style too.
    expected: ['div:node-pool:gated-on:aks', 'style:node-pool:gate-placement:aks'],
  },
  {
    provider: 'aks',
    drift: 'GPU label dropped',
    composer: [{ search: '        if "gpu" in pool:\n            labels["modelplane.ai/gpu"] = pool["gpu"]["type"]\n', replace: '' }],
    scenarios: ['converge'],
    expected: ['div:node-pool:labels:aks'],
  },
  {
    provider: 'aks',
    drift: 'a credential made unusable drops consumers (the node pools)',
    composer: [{ search: '        for pool in self.pools:\n            key = f"nodepool-{pool[\'name\']}"\n', replace: `${UNUSABLE_CREDENTIALS}        for pool in self.pools:\n            key = f"nodepool-{pool['name']}"\n` }],
    scenarios: ['credentials-broken'],
    expected: ['div:then.0-break-credentials:outcome:aks', 'rule:credentials-loss-drops-nothing:aks:nodepool-gpu'],
  },
  {
    provider: 'eks',
    drift: 'key prefix renamed: user pools keyed node-pool-<pool>',
    composer: [{ search: `            key = f"nodepool-{pool['name']}"\n`, replace: `            key = f"nodepool-{pool['name']}" if pool is SYSTEM_POOL else f"node-pool-{pool['name']}"\n` }],
    scenarios: ['converge'],
    expected: ['div:node-pool:key-pattern:eks'],
  },
  {
    provider: 'eks',
    drift: 'status.cache missing',
    composer: [{ search: '        if "storage-class-rwx" in self.desired:\n            status["cache"] = {"storageClassName": STORAGE_CLASS}\n', replace: '' }],
    scenarios: ['converge'],
    expected: ['div:status:cache:eks', 'rule:cache-storage-class:eks:status.cache'],
  },
  {
    provider: 'eks',
    drift: "a composed resource's metadata.namespace set",
    composer: [{ search: '        if labels:\n            body["metadata"] = {"labels": labels}\n', replace: '        body["metadata"] = {"namespace": self.namespace, **({"labels": labels} if labels else {})}\n' }],
    scenarios: ['converge'],
    // Stylistic, on every role whose resource it composes through _cloud (cloud-only keys are not compared by name).
    // Only eks, gke and nebius compose a system pool: two of three is no convention, so a split there.
    expected: [...['cluster', 'network', 'node-pool', 'subnet'].map((role) => `div:${role}:metadata-namespace:eks`), 'split:system-pool:metadata-namespace'],
  },
  {
    provider: 'gke',
    drift: 'consumers dropped on credential loss (the network needs the ProviderConfig)',
    composer: [
      {
        search: '        self._desire("network", self._cloud(COMPUTE, "Network", {"autoCreateSubnetworks": False}))\n',
        replace: '        if self.provider_config is not None:\n            self._desire("network", self._cloud(COMPUTE, "Network", {"autoCreateSubnetworks": False}))\n',
      },
    ],
    scenarios: ['credentials-lost'],
    expected: ['div:then.0-remove-credentials:outcome:gke', 'rule:credentials-loss-drops-nothing:gke:network'],
  },
  {
    provider: 'gke',
    drift: 'event wording changed',
    composer: [{ search: 'f"Waiting for GCP {kind} {name}"', replace: 'f"GCP {kind} {name} not found yet"' }],
    scenarios: ['credentials-missing'],
    // Only GKE, Nebius and AKS say "Waiting for"; EKS and Vultr say nothing. The four established
    // split two against two, and GKE's new wording follows neither way: blamed beside the split
    // (which goldens/accepted.yaml accepts for the facet).
    expected: ['div:events:events:gke'],
    full: ['div:events:events:gke'],
  },
  // One seed per facet-wide accepted entry of goldens/accepted.yaml, moving one provider to a new way.
  {
    provider: 'gke',
    drift: 'accepted split of outcome events: the wording on credential loss changed',
    composer: [{ search: 'f"Waiting for GCP {kind} {name}"', replace: 'f"GCP {kind} {name} not found yet"' }],
    scenarios: ['credentials-lost'],
    expected: ['div:then.0-remove-credentials:outcome-events:gke'],
    full: ['div:then.0-remove-credentials:outcome-events:gke'],
  },
  {
    provider: 'gke',
    drift: 'accepted split of requires: the ProviderConfig required as a namespaced kind',
    composer: [{ search: '            GCP_PROVIDER_CONFIG,\n            kind,\n', replace: '            GCP_PROVIDER_CONFIG,\n            "ProviderConfig",\n' }],
    scenarios: ['converge'],
    // A namespaced ProviderConfig is looked for in the XR's namespace and not found: it waits, and the rule sees no namespace given.
    // Only gke and nebius require a ProviderConfig in custom-credentials besides: two of three, a split.
    expected: ['div:events:events:gke', 'div:requirements:requires:gke', 'rule:namespaced-requirement:gke:requirements.gcp-provider-config', 'split:requirements:requirements'],
    full: ['div:requirements:requires:gke'],
  },
  {
    provider: 'gke',
    drift: 'accepted split of identity-entry: the identity Secret no longer published',
    composer: [{ search: '        if "service-account-key" in self.desired:\n            secrets.append(\n', replace: '        if False:\n            secrets.append(\n' }],
    scenarios: ['converge'],
    expected: ['div:status:identity-entry:gke'],
    full: ['div:status:identity-entry:gke'],
  },
  {
    provider: 'eks',
    drift: 'accepted split of system-pool presence: no system pool composed',
    composer: [{ search: SYSTEM_POOL_LOOP, replace: SYSTEM_POOL_LOOP_WITHOUT }],
    scenarios: ['converge'],
    expected: ['div:system-pool:presence:eks'],
    full: ['div:system-pool:presence:eks'],
  },
  {
    provider: 'gke',
    drift: "accepted split of intent: the pool's node count no longer reaches its NodePool",
    composer: [{ search: '            "nodeCount": pool.get("nodeCount", 1),\n', replace: '            "nodeCount": 1,\n' }],
    scenarios: ['converge'],
    expected: ['div:node-pool:intent:gke'],
    full: ['div:node-pool:intent:gke'],
  },
  {
    provider: 'gke',
    drift: 'a status field added',
    composer: [{ search: '        status: dict[str, Any] = {"secrets": secrets}\n', replace: '        status: dict[str, Any] = {"secrets": secrets, "region": self.region}\n' }],
    scenarios: ['converge'],
    expected: ['div:status:fields:gke'],
  },
  {
    provider: 'nebius',
    drift: 'helm ProviderConfig dropped',
    composer: [{ search: '            ("provider-config-helm", HELM),\n', replace: '' }],
    scenarios: ['converge'],
    expected: ['div:kubeconfig:readers:nebius', 'div:provider-config-helm:presence:nebius', 'rule:provider-configs-read-kubeconfig:nebius:provider-config-helm'],
  },
  {
    provider: 'nebius',
    drift: 'requirement without namespace',
    composer: [{ search: '            namespace=self.namespace if kind == "ProviderConfig" else None,\n', replace: '            namespace=None,\n' }],
    scenarios: ['custom-credentials'],
    // Its ProviderConfig never found, Nebius publishes no identity Secret: it leaves the way of the
    // identity-entry split accepted for it (a facet-wide entry without ways used to absorb that).
    expected: [
      'div:events:events:nebius',
      'div:status:identity-entry:nebius',
      'rule:namespaced-requirement:nebius:requirements.nebius-provider-config',
      // Only gke and nebius require a ProviderConfig in custom-credentials besides: two of three, a split.
      'split:requirements:requirements',
    ],
  },
  {
    provider: 'nebius',
    drift: 'early ready: the cluster marked ready when composed',
    composer: [{ search: 'READY_WHEN_COMPOSED = ("provider-config-helm", "provider-config-kubernetes", "storage-class-rwx")', replace: 'READY_WHEN_COMPOSED = ("cluster", "provider-config-helm", "provider-config-kubernetes", "storage-class-rwx")' }],
    scenarios: ['never-ready'],
    expected: ['div:cluster:ready-by:nebius', 'div:cluster:ready:nebius', 'rule:no-early-ready:nebius:cluster'],
  },
  {
    provider: 'vultr',
    drift: 'Delete on an in-cluster Release',
    // The cross-provider suite's seed: the GPU operator's Release, with Delete among its policies.
    composer: ACROSS_SEEDS.releaseDeletes.composer,
    scenarios: ['converge'],
    // The seed is written in the house style (its new public composer has a docstring): only the rule.
    expected: ['rule:in-cluster-no-delete:vultr:gpu-operator'],
  },
  {
    provider: 'vultr',
    drift: 'missing providerConfigRef (on the node pools)',
    composer: [
      {
        search: '        return self._cloud(VKE, "NodePools", for_provider)\n',
        replace: '        body = self._cloud(VKE, "NodePools", for_provider)\n        del body["spec"]["providerConfigRef"]\n        return body\n',
      },
    ],
    scenarios: ['converge'],
    expected: ['div:node-pool:provider-config-ref:vultr', 'rule:cloud-credentials-ref:vultr:nodepool-gpu'],
  },
  {
    provider: 'vultr',
    drift: 'a node pool that no longer selects its cluster (clusterIdSelector dropped)',
    composer: [{ search: '        for_provider["clusterIdSelector"] = {"matchControllerRef": True}\n', replace: '' }],
    scenarios: ['converge'],
    // The others' pools all select their cluster: wiring, behavior (issue 37 item 5).
    expected: ['div:node-pool:selects:vultr'],
  },
  // Harmful changes that only ever showed as golden diffs (issue 37, point 8): each is a rule naming its place.
  {
    provider: 'gke',
    drift: 'a region written as a literal (the subnet)',
    composer: [{ search: '                    "region": self.region,\n', replace: '                    "region": "us-central1",\n' }],
    scenarios: ['converge'],
    // The region probe moves the XR to another region: the subnet keeps the literal.
    expected: ['rule:region-from-intent:gke:subnet'],
  },
  {
    provider: 'nebius',
    drift: 'a dropped fatal result (a spec it cannot compose answered normally)',
    file: 'fn.py',
    composer: [{ search: '        except InvalidSpecError as err:\n            response.fatal(rsp, str(err))\n', replace: '        except InvalidSpecError:\n' }],
    scenarios: ['converge'],
    // The invalid-spec probe names a pool like the system pool: the empty answer would delete everything.
    expected: ['rule:invalid-spec-fatal:nebius:fatal'],
  },
  {
    provider: 'aks',
    drift: 'an exception swallowed around an observed fact (the resource group\'s external name)',
    composer: [
      {
        search: '        resource_group = self._observed_fact(\n            "resource-group", "metadata", "annotations", EXTERNAL_NAME\n        ) or self._observed_fact(\n',
        replace:
          '        resource_group = None\n        try:\n            resource_group = self._observed("resource-group")["metadata"]["annotations"][EXTERNAL_NAME]\n        except Exception:\n            pass\n        resource_group = resource_group or self._observed_fact(\n',
      },
    ],
    scenarios: ['converge'],
    expected: ['rule:swallowed-fact:aks:Composer.compose_storage_class'],
  },
  {
    provider: 'vultr',
    drift: 'pools not kept on cluster loss',
    composer: [{ search: NODE_POOL_LOOP, replace: '            if "cluster" in self.observed_resources:\n' }],
    scenarios: ['cluster-lost'],
    expected: ['div:then.0-delete-cluster:outcome:vultr', 'rule:nothing-dropped:vultr:nodepool-gpu'],
  },
];

/** The file a seed edits, relative to the project root. */
export const seededFile = (seed: MutationSeed) => `providers/${seed.provider}/function/${seed.file ?? 'composer.py'}`;

/** A copy of the project with the seed applied to its provider, formatted in the house style. */
export function seeded(seed: MutationSeed): ProjectCopy {
  const copy = copyProject({ prefix: `drift-mutation-${seed.provider}-` });
  const { dir } = copy;
  const file = path.join(dir, seededFile(seed));
  let text = readFileSync(file, 'utf8');
  for (const edit of seed.composer) text = applyEdit(text, edit, seededFile(seed));
  writeFileSync(file, text);
  // A seeded behaviour change is written in the house style, so only its behaviour differs.
  const format = spawnSync(path.join(REPO, '.venv/bin/ruff'), ['format', '--quiet', file]);
  if (format.status !== 0) throw new Error(`ruff format of the seeded ${file} failed:\n${String(format.stderr)}`);
  return copy;
}
