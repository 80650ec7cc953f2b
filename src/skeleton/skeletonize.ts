import type { Adapter } from '../config/types.js';
import type { EventRecord, StepRecord, Trace } from '../world/trace.js';
import { isObject, stableStringify, type JsonObject } from '../util/objects.js';
import { dependentsOf, labelKeys, managementPolicies, manifestOf, metadataOf, poolDeclarations, providerConfigRef, readinessPolicy, readsSecrets, writesSecret, type Dependents } from './bodyFacts.js';
import { DEFAULT_CREDENTIALS, type Plane } from '../roles/plane.js';
import { inlinePools, resolveRoles } from '../roles/resolve.js';
import { selectsOf } from './selects.js';
import { makeTemplater, templateStrings } from './template.js';
import {
  SKELETON_VERSION,
  type EventSkeleton,
  type PerturbationSkeleton,
  type RequirementSkeleton,
  type ResourceSkeleton,
  type Skeleton,
  type StatusSkeleton,
  type UnknownFacet,
} from './types.js';

export interface SkeletonInput {
  trace: Trace;
  adapter: Pick<Adapter, 'roles' | 'values'> & Partial<Pick<Adapter, 'labelFields' | 'inline'>>;
  pools: string[];
  /** Gating analysis results by key, when it ran. */
  gates?: Record<string, string[]>;
  /** Intent coverage by key (the intent fields that reach it), when the probes ran. */
  coverage?: Record<string, string[]>;
  /** Tokens the function derives from the XR's identity (src/skeleton/derivedTokens.ts), templated to `{hash}`. */
  derived?: readonly string[];
  /** Facets an errored analysis left unknown for this cell. */
  unknown?: UnknownFacet[];
}

function distinctEvents(steps: StepRecord[]): EventSkeleton[] {
  const seen = new Map<string, EventSkeleton>();
  for (const step of steps) {
    for (const result of step.results as EventRecord[]) {
      const id = `${result.severity}\u0000${result.message}`;
      if (!seen.has(id)) seen.set(id, { step: step.index, severity: result.severity, message: result.message });
    }
  }
  return [...seen.values()];
}

/** Each key's body as the function last desired it. */
function latestBodies(keys: string[], steps: StepRecord[]): Record<string, JsonObject> {
  return Object.fromEntries(keys.map((key) => [key, [...steps].reverse().find((step) => key in step.resources)!.resources[key]!.resource]));
}

/** How a body's labels and metadata are read: the adapter's label hints, what to leave to inline pools, what other resources select. */
interface BodyReading {
  labelFields: readonly string[];
  /** Inline pool declarations inside this body: their labels are their pools'. */
  inlinePools: ReadonlySet<unknown>;
  dependents: Dependents;
}

function resourceSkeleton(key: string, steps: StepRecord[], body: JsonObject, role: string, plane: Plane, gates: string[] | undefined, reading: BodyReading, selects: string[] | undefined): ResourceSkeleton {
  const appears = steps.find((step) => key in step.resources)!;
  const readyStep = steps.find((step) => step.resources[key]?.ready === 'True');
  const dropped = steps.find((step) => step.dropped.includes(key));
  const apiVersion = String(body.apiVersion ?? '');
  const out: ResourceSkeleton = {
    role,
    plane,
    apiVersion,
    kind: String(body.kind ?? ''),
    appears: appears.index,
    ready: readyStep?.index ?? null,
    readyBy: readyStep ? (readyStep.index === appears.index ? 'composed' : 'observed') : null,
  };
  if (gates?.length) out.gatedOn = gates;
  const optional = {
    providerConfigRef: providerConfigRef(body),
    managementPolicies: managementPolicies(body),
    readinessPolicy: readinessPolicy(body),
    writes: writesSecret(body),
    reads: readsSecrets(body),
    selects,
    labels: labelKeys(body, reading.labelFields, reading.inlinePools),
    metadata: metadataOf(body, reading.dependents),
    manifest: manifestOf(body),
    dropped: dropped?.index,
  };
  for (const [field, value] of Object.entries(optional)) if (value !== undefined) (out as unknown as JsonObject)[field] = value;
  return out;
}

function statusSkeleton(steps: StepRecord[], final: StepRecord | undefined): StatusSkeleton {
  const appears = steps.find((step) => Object.keys(step.status).length > 0)?.index ?? null;
  const status = final?.status ?? {};
  const firstWith = (test: (status: JsonObject) => boolean) => steps.find((step) => test(step.status))?.index ?? 0;
  const secrets = (Array.isArray(status.secrets) ? status.secrets : []).filter(isObject).map((entry) => ({
    type: String(entry.type ?? ''),
    name: String(entry.name ?? ''),
    key: String(entry.key ?? ''),
    appears: firstWith((s) => Array.isArray(s.secrets) && s.secrets.some((e) => isObject(e) && e.type === entry.type)),
  }));
  const out: StatusSkeleton = { appears, secrets };
  const cache = isObject(status.cache) ? status.cache : undefined;
  if (cache && typeof cache.storageClassName === 'string') {
    out.cache = { storageClassName: cache.storageClassName, appears: firstWith((s) => isObject(s.cache) && typeof s.cache.storageClassName === 'string') };
  }
  const fields = Object.keys(status).filter((field) => field !== 'secrets' && field !== 'cache').sort();
  if (fields.length) out.fields = fields;
  return out;
}

function requirementSkeletons(final: StepRecord | undefined): Record<string, RequirementSkeleton> {
  const out: Record<string, RequirementSkeleton> = {};
  for (const name of Object.keys(final?.requirements ?? {}).sort()) {
    const selector = final!.requirements[name]!;
    const select: RequirementSkeleton['select'] = {};
    if (selector.matchName !== undefined) select.name = selector.matchName;
    if (selector.namespace) select.namespace = selector.namespace;
    if (selector.matchLabels) select.labels = Object.keys(selector.matchLabels).sort();
    out[name] = { apiVersion: selector.apiVersion, kind: selector.kind, select, satisfied: final!.satisfied.includes(name) };
  }
  return out;
}

function perturbationSkeletons(trace: Trace, before: StepRecord | undefined): PerturbationSkeleton[] {
  let previous = before;
  return trace.perturbations.map((perturbation) => {
    const steps = trace.steps.filter((step) => step.index >= perturbation.from && step.index <= perturbation.to);
    const last = steps[steps.length - 1];
    const markedBefore = Object.keys(previous?.resources ?? {}).filter((key) => previous!.resources[key]!.ready === 'True');
    const out: PerturbationSkeleton = {
      do: perturbation.do,
      ...(perturbation.role ? { role: perturbation.role } : {}),
      ...(perturbation.fact ? { fact: perturbation.fact } : {}),
      dropped: [...new Set(steps.flatMap((step) => step.dropped))].sort(),
      unmarked: markedBefore.filter((key) => steps.some((step) => step.resources[key]?.ready !== 'True')).sort(),
      statusKept: stableStringify(last?.status ?? {}) === stableStringify(previous?.status ?? {}),
      xrReady: last?.xrReady ?? false,
      events: distinctEvents(steps),
    };
    previous = last ?? previous;
    return out;
  });
}

/**
 * Reduces a trace to its structural skeleton: what was composed under which key and role, when it
 * appeared and became ready, what it references, what status was published, what perturbations did.
 * Pure and deterministic; cloud-specific strings are templated out.
 */
export function skeletonize({ trace, adapter, pools, gates, coverage, derived, unknown }: SkeletonInput): Skeleton {
  const convergeSteps = trace.steps.filter((step) => step.phase === 'converge');
  const final = trace.converged ? trace.steps[trace.converged.step] : convergeSteps[convergeSteps.length - 1];
  const keys = [...new Set(convergeSteps.flatMap((step) => Object.keys(step.resources)))].sort();
  const bodies = latestBodies(keys, convergeSteps);
  const { roles, planes, inline } = resolveRoles(bodies, {
    adapter: { roles: adapter.roles, inline: adapter.inline ?? {} },
    pools,
    credentials: trace.credentials ?? DEFAULT_CREDENTIALS,
  });
  const labelFields = adapter.labelFields ?? [];
  // A pool declared inside the cluster is its pool's: its labels are the pool role's, not the cluster's.
  const hosted = new Map<string, Array<{ role: string; body: JsonObject }>>();
  for (const host of new Set(Object.values(inline))) hosted.set(host, inlinePools(bodies[host]!, pools).filter((pool) => inline[pool.role] === host));
  // A role the adapter says its host plays inline (`inline: {system-pool: cluster}`) under a field drift
  // does not know as a pool's: its declaration is the object in the host holding the pool's own labels.
  for (const role of Object.keys(adapter.inline ?? {}).sort()) {
    const host = inline[role];
    const declared = host === undefined ? [] : (hosted.get(host) ?? []);
    if (host === undefined || declared.some((pool) => pool.role === role) || !bodies[host]) continue;
    const holders = poolDeclarations(bodies[host]!).filter((body) => !declared.some((pool) => pool.body === body));
    if (holders.length) hosted.set(host, [...declared, ...holders.map((body) => ({ role, body }))]);
  }
  const inlineLabels: Record<string, string[]> = {};
  for (const declared of hosted.values()) {
    for (const pool of declared) {
      // Recorded even when empty: a declared inline pool without labels lacks them.
      const found = labelKeys({ spec: pool.body }, labelFields) ?? [];
      inlineLabels[pool.role] = [...new Set([...(inlineLabels[pool.role] ?? []), ...found])].sort();
    }
  }
  const resources: Record<string, ResourceSkeleton> = {};
  for (const key of keys) {
    const role = roles[key]!;
    const reading = { labelFields, inlinePools: new Set<unknown>((hosted.get(key) ?? []).map((pool) => pool.body)), dependents: dependentsOf(bodies, key) };
    resources[key] = resourceSkeleton(key, convergeSteps, bodies[key]!, role, planes[key]!, gates?.[key], reading, selectsOf(key, bodies));
    // Recorded on the pool's role only, where the contract says the intent must land; empty is a finding.
    if (coverage && role === 'node-pool') resources[key] = { ...resources[key], intent: coverage[key] ?? [] };
  }
  const skeleton: Skeleton = {
    skeleton: SKELETON_VERSION,
    provider: trace.provider,
    scenario: trace.scenario,
    converged: trace.converged,
    ...(trace.error ? { error: trace.error } : {}),
    ...(unknown?.length ? { unknown: [...unknown].sort() } : {}),
    requirements: requirementSkeletons(final),
    status: statusSkeleton(convergeSteps, final),
    resources,
    ...(Object.keys(inline).length ? { inline } : {}),
    ...(Object.keys(inlineLabels).length ? { inlineLabels } : {}),
    events: distinctEvents(convergeSteps),
    then: perturbationSkeletons(trace, final),
  };
  const template = makeTemplater({ xr: trace.xr.name, namespace: trace.xr.namespace, values: adapter.values, ...(derived ? { derived } : {}) });
  return { ...templateStrings(skeleton, template), provider: trace.provider, scenario: trace.scenario };
}
