import type { Plane } from '../roles/plane.js';
import type { MetadataSkeleton } from './bodyFacts.js';

/**
 * The skeleton format version, written in every golden's header. Bump it when the format changes.
 * 2: `metadata` per resource; `labels` only what the resource labels (node and template labels),
 * read from maps and key/value lists; `intent` on node pools of ablated scenarios.
 * 3: `plane` per resource (cloud, in-cluster, neither: by wiring); roles inferred; `inline` roles;
 * `fact` on withdraw-fact perturbations.
 * 4: labels found wherever the pool's own labels sit (LABEL_FIELDS and `labelFields` are hints);
 * an inline pool's labels in `inlineLabels`, never its host's; `metadata.selectedLabels` and
 * `metadata.behaviorAnnotations` apart from the stylistic `labels` and `annotations`; `unknown`.
 * 5: `selects` per resource: the composed keys it selects or references (selectors, matchControllerRef,
 * name refs): wiring, compared like `reads`.
 */
export const SKELETON_VERSION = 5;

export interface ResourceSkeleton {
  /** The contract role it plays (inferred; see roles/resolve.ts), or its own key when cloud-only. */
  role: string;
  /** Where it lives, by its wiring: cloud, in-cluster (through a composed ProviderConfig) or neither. */
  plane: Plane;
  apiVersion: string;
  kind: string;
  /** Step the key first appears in the desired state. */
  appears: number;
  /** Step the function first marks it READY_TRUE, or null if it never does. */
  ready: number | null;
  /** `composed`: marked ready the step it appears; `observed`: only after the world reported it Ready. */
  readyBy: 'composed' | 'observed' | null;
  /** Facts without which it never appears (gating analysis). */
  gatedOn?: string[];
  /** Node pools, where the intent probes ran: the pool intent fields that change it (nodeCount, gpu, ...). */
  intent?: string[];
  providerConfigRef?: { kind: string; name: string };
  managementPolicies?: string[];
  readinessPolicy?: string;
  /** The connection Secret it writes. */
  writes?: string;
  /** Secrets it reads, `namespace/name:key`. */
  reads?: string[];
  /** The composed keys it selects or references (src/skeleton/selects.ts): which cluster a pool attaches to. */
  selects?: string[];
  /** Label keys it puts on what it creates (node labels, template labels), from any usual shape. */
  labels?: string[];
  /**
   * Its own metadata: the namespace it sets, its label and annotation keys that dress it (style), and
   * apart from those the ones that act (behavior): labels another composed resource selects,
   * annotations in Crossplane's `crossplane.io/` namespace or that another resource references.
   */
  metadata?: MetadataSkeleton;
  /** For in-cluster Objects: `Kind/name` of the manifest it applies. */
  manifest?: string;
  /** Step a converging world drops it (deletes it), if it does. */
  dropped?: number;
}

export interface SecretEntry {
  type: string;
  name: string;
  key: string;
  appears: number;
}

export interface StatusSkeleton {
  /** Step the function first publishes any status, or null if it never does. */
  appears: number | null;
  secrets: SecretEntry[];
  cache?: { storageClassName: string; appears: number };
  /** Other top-level status fields it publishes. */
  fields?: string[];
}

export interface RequirementSkeleton {
  apiVersion: string;
  kind: string;
  select: { name?: string; namespace?: string; labels?: string[] };
  /** Whether the world answered it at convergence. */
  satisfied: boolean;
}

export interface EventSkeleton {
  /** First step it is emitted. */
  step: number;
  severity: string;
  message: string;
}

export interface PerturbationSkeleton {
  do: string;
  role?: string;
  /** For withdraw-fact: the cloud fact withdrawn. */
  fact?: string;
  /** Keys deleted in the steps after it. */
  dropped: string[];
  /** Keys whose READY_TRUE mark was withdrawn. */
  unmarked: string[];
  /** Whether the XR's status is the same at the end as before it. */
  statusKept: boolean;
  xrReady: boolean;
  events: EventSkeleton[];
}

/** The pool intent drift probes, in a fixed order: what a node pool's `intent` lists. */
export const INTENT_FIELDS = ['nodeCount', 'minNodeCount', 'maxNodeCount', 'gpu', 'gpuCount', 'zones'] as const;
export type IntentField = (typeof INTENT_FIELDS)[number];

/** A facet a cell's analysis could not establish: its ablations (gated-on) or its intent probes (intent) errored. */
export type UnknownFacet = 'gated-on' | 'intent';

export interface Skeleton {
  skeleton: number;
  provider: string;
  scenario: string;
  converged: { step: number; xrReady: boolean } | null;
  error?: string;
  /**
   * Facets this cell could not establish because an analysis errored (its error finding says why):
   * its `gatedOn` or `intent` are unknown, not empty, so neither the golden nor the comparison
   * across providers reads them. Never in a golden: a cell with an error is not written.
   */
  unknown?: UnknownFacet[];
  requirements: Record<string, RequirementSkeleton>;
  status: StatusSkeleton;
  resources: Record<string, ResourceSkeleton>;
  /** Roles played inside another composed resource: role → that resource's key (e.g. system-pool → cluster). */
  inline?: Record<string, string>;
  /** The node label keys of each inline pool role (see `inline`), read from its declaration in its host. */
  inlineLabels?: Record<string, string[]>;
  events: EventSkeleton[];
  then: PerturbationSkeleton[];
}
