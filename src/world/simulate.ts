import type { RunFunctionRequest } from '@crossplane-org/function-sdk-typescript';
import { EVERY_FACT, type Adapter, type K8sObject, type Perturbation, type Scenario } from '../config/types.js';
import { DEFAULT_CREDENTIALS, referencesCredentials, type Credentials } from '../roles/plane.js';
import { resolveRoles, type RoleResolution } from '../roles/resolve.js';
import { isObject, splitPath, withoutPath, type JsonObject } from '../util/objects.js';
import type { Answer } from './protocol.js';
import { crossplane, type Caller, type ControlPlane, type Reconciler } from './crossplane.js';
import { condition, connectionSecret, materialize, stall, type Materialize } from './materialize.js';
import type { PerturbationRecord, Selector, StepRecord, Trace } from './trace.js';
import { brokenCredentials } from './credentials.js';
import { buildXR, worldCredentials } from './xr.js';
import { MemoWeakMap } from '../util/memoMap.js';

export type { Caller };

/** One fact held back from the world, for gating analysis: what never appears without it? */
export type Withhold =
  | { what: 'credentials' }
  | { what: 'ready'; key: string }
  | { what: 'exists'; key: string }
  | { what: 'fact'; key: string; fact: string };

export interface SimulateOptions {
  maxSteps: number;
  withhold?: Withhold;
  /** Stop early once every one of these keys has appeared: an ablation that gates nothing is settled. */
  stopOnceAppeared?: ReadonlySet<string>;
  /** Receives each step's final request and answer, e.g. to replay them for the determinism check. */
  onStep?: (step: number, request: RunFunctionRequest, answer: Answer) => void;
  /** Crossplane's semantics: drift's own engine unless another is given (src/world/crossplane.ts). */
  engine?: Reconciler;
}

/**
 * The scenario's world around one provider × scenario: what the cloud and the API server do with what
 * Crossplane composes (names, conditions, cloud facts, credentials that come and go). What Crossplane
 * itself does in a reconcile is src/world/crossplane.ts's.
 */
class World implements ControlPlane {
  /** Replaced, never changed in place, once a step feeds its status back: a request sent earlier keeps the XR it carried. */
  xr: K8sObject;
  /**
   * Observed state by key. Its objects are never changed once set (a change sets a new object), so
   * requests built earlier stay as they were sent and their text can be cached by identity.
   */
  readonly observed = new Map<string, JsonObject>();
  /** What each observed object was materialized from (how, and the desired body's text), to keep it when that has not changed. */
  private readonly sources = new Map<string, { how: string; text: string }>();
  readonly pools: string[];
  /** The XR's credentials reference: resources naming it are reconciled through the cloud credentials. */
  readonly credentialsRef: Credentials;
  credentialsPresent: boolean;
  /** False once `break-credentials` made them unusable: still found, but nothing reconciles through them. */
  credentialsUsable = true;
  credentials: K8sObject[];
  readonly secrets = new Map<string, K8sObject>();
  readonly unready = new Set<string>();
  /** Cloud facts withdrawn from existing resources (`key\u0000fact`): the cloud no longer reports them. */
  private readonly withdrawn = new Set<string>();
  /** Roles of the keys the function last desired, inferred as the skeleton infers them. */
  private resolution: RoleResolution = { roles: {}, planes: {}, inline: {} };

  constructor(
    readonly adapter: Adapter,
    readonly scenario: Scenario,
    readonly withhold: Withhold | undefined,
  ) {
    this.xr = buildXR(adapter, scenario);
    this.pools = scenario.xr.nodePools.map((pool) => pool.name);
    this.credentials = worldCredentials(adapter, scenario);
    this.credentialsRef = scenario.xr.credentials ?? DEFAULT_CREDENTIALS;
    this.credentialsPresent = scenario.world.credentials === 'present' && withhold?.what !== 'credentials';
  }

  role(key: string): string {
    return this.resolution.roles[key] ?? key;
  }

  isReady(key: string): boolean {
    const role = this.role(key);
    if (this.unready.has(role)) return false;
    if (this.withhold?.what === 'ready' && this.withhold.key === key) return false;
    const ready = this.scenario.world.ready;
    if (ready === 'all') return true;
    if (ready === 'none') return false;
    return !ready.except.includes(role);
  }

  /** Answers a requirement from the world: credentials while present, and connection Secrets. */
  resolve(selector: Selector): K8sObject[] {
    const pool = [...(this.credentialsPresent ? this.credentials : []), ...this.secrets.values()];
    return pool.filter((resource) => {
      if (resource.apiVersion !== selector.apiVersion || resource.kind !== selector.kind) return false;
      if (selector.matchName !== undefined && resource.metadata.name !== selector.matchName) return false;
      if ((resource.metadata.namespace ?? '') !== (selector.namespace ?? '')) return false;
      const labels = (isObject(resource.metadata.labels) ? resource.metadata.labels : {}) as Record<string, unknown>;
      return Object.entries(selector.matchLabels ?? {}).every(([label, value]) => labels[label] === value);
    });
  }

  /** The resources Crossplane would fetch for a function's requirements. */
  required(requirements: Record<string, Selector>): Record<string, K8sObject[]> {
    return Object.fromEntries(Object.keys(requirements).map((name) => [name, this.resolve(requirements[name]!)]));
  }

  /** Applies a reconcile's outcome: composed resources observed, the dropped ones deleted, the XR's status fed back. */
  apply(answer: Answer, dropped: readonly string[], xrReady: boolean): void {
    for (const key of dropped) this.forget(key);
    this.resolution = rolesOf(answer, this.adapter, this.pools, this.credentialsRef);
    // Without usable credentials a managed resource that references them cannot be reconciled: a new
    // one is never created (never Ready, no cloud facts); one that exists keeps the state it had.
    const reconcilable = this.credentialsPresent && this.credentialsUsable;
    for (const key of Object.keys(answer.resources).sort()) {
      if (this.withhold?.what === 'exists' && this.withhold.key === key) continue;
      const desired = answer.resources[key]!.resource;
      const existing = this.observed.get(key);
      const stalled = !reconcilable && referencesCredentials(desired, this.credentialsRef);
      const facts = this.adapter.world.observe.filter(
        (rule) =>
          rule.kind === desired.kind &&
          !this.withdrawn.has(`${key}\u0000${rule.fact}`) &&
          !(this.withhold?.what === 'fact' && this.withhold.key === key && this.withhold.fact === rule.fact),
      );
      if (stalled && existing) {
        this.observed.set(key, stall(existing, desired));
        this.sources.delete(key);
        continue;
      }
      const existingName = isObject(existing?.metadata) ? (existing.metadata.name as string) : undefined;
      const ready = !stalled && this.isReady(key);
      const used = stalled ? [] : facts;
      // Most resources come back unchanged step after step: keep the object, and with it its encoded entry.
      const how = `${ready}\u0000${!stalled}\u0000${existingName ?? ''}\u0000${used.map((rule) => rule.fact).join(',')}`;
      const text = resourceText(answer, key);
      const source = this.sources.get(key);
      if (existing && source && source.how === how && source.text === text) continue;
      this.observed.set(key, this.materialized(key, desired, how, { xr: this.xr, key, desired, existingName, ready, synced: !stalled, facts: used }));
      this.sources.set(key, { how, text });
    }
    this.refreshSecrets();
    this.xr = { ...this.xr, status: { ...answer.status, conditions: [condition('Ready', xrReady, xrReady ? 'Available' : 'Creating')] } };
  }

  /**
   * A desired body materialized as before when everything it is materialized from is the same: the
   * answer (and so its body) is shared by every simulation the memo answered, and the object with it,
   * so ablations and scenarios observe the very objects the baseline did and their encoded entries
   * are reused. Observed objects are never changed in place, so sharing them is safe.
   */
  private materialized(key: string, desired: JsonObject, how: string, input: Materialize): JsonObject {
    const { name, namespace, uid } = this.xr.metadata;
    const id = `${adapterId(this.adapter)}\u0000${key}\u0000${how}\u0000${name}\u0000${String(namespace)}\u0000${String(uid)}`;
    return keptFor(materializedBodies, desired, id, () => materialize(input));
  }

  /**
   * One cloud fact disappears from the existing resources that carry it (of one role, if given); their
   * conditions stay. `every`: every fact the adapter's cloud publishes, whatever its name: each observed
   * field a gate may read (an external name, an email, a bucket's hostname).
   */
  private withdrawFact(fact: string, role: string | undefined): void {
    for (const [key, resource] of this.observed) {
      if (role !== undefined && this.role(key) !== role) continue;
      const rules = this.adapter.world.observe.filter((rule) => (fact === EVERY_FACT || rule.fact === fact) && rule.kind === resource.kind);
      if (rules.length === 0) continue;
      for (const rule of rules) this.withdrawn.add(`${key}\u0000${rule.fact}`);
      let withdrawn = resource;
      for (const rule of rules) for (const dotted of Object.keys(rule.set)) withdrawn = withoutPath(withdrawn, splitPath(dotted));
      this.observed.set(key, withdrawn);
      this.sources.delete(key);
    }
  }

  private forget(key: string): void {
    this.observed.delete(key);
    this.sources.delete(key);
  }

  /** The connection Secrets the observed resources have written, for requirements to find. */
  private refreshSecrets(): void {
    this.secrets.clear();
    for (const [key, resource] of this.observed) {
      const secret = connectionSecret(resource, key);
      if (secret) this.secrets.set(`${secret.metadata.namespace}/${secret.metadata.name}`, secret);
    }
  }

  perturb(perturbation: Perturbation): void {
    switch (perturbation.do) {
      case 'remove-credentials':
        this.credentialsPresent = false;
        break;
      case 'restore-credentials':
        this.credentialsPresent = this.withhold?.what !== 'credentials';
        this.credentialsUsable = true;
        this.credentials = worldCredentials(this.adapter, this.scenario);
        break;
      case 'break-credentials':
        // Requirements still find the ProviderConfig, with its new content; nothing reconciles through it.
        this.credentialsUsable = false;
        this.credentials = brokenCredentials(this.adapter, this.scenario);
        break;
      case 'withdraw-fact':
        this.withdrawFact(perturbation.fact!, perturbation.role);
        break;
      case 'unready':
        this.unready.add(perturbation.role!);
        for (const [key, resource] of this.observed) {
          if (this.role(key) === perturbation.role && isObject(resource.status)) {
            const conditions = [condition('Ready', false, 'Unavailable'), condition('Synced', true, 'ReconcileSuccess')];
            this.observed.set(key, { ...resource, status: { ...resource.status, conditions } });
            this.sources.delete(key);
          }
        }
        break;
      case 'delete':
        // A Map may lose the entry being visited without upsetting the iteration.
        for (const key of this.observed.keys()) if (this.role(key) === perturbation.role) this.forget(key);
        this.refreshSecrets();
        break;
    }
  }
}

/** Each adapter object's number, for the caches below: two adapters may share a name (tests, synthetic sets), never an object. */
const adapterIds = new WeakMap<Adapter, number>();
let adapters = 0;

function adapterId(adapter: Adapter): number {
  let id = adapterIds.get(adapter);
  if (id === undefined) {
    id = adapters++;
    adapterIds.set(adapter, id);
  }
  return id;
}

/** Materialized bodies by the desired body they came from, then by everything else they depend on. */
const materializedBodies = new MemoWeakMap<JsonObject, Map<string, JsonObject>>();

/**
 * The roles of an answer's keys, resolved once per answer and context: memoized answers recur in
 * every simulation that reaches them. A resolution is only read.
 */
const resolutions = new MemoWeakMap<Answer, Map<string, RoleResolution>>();

function rolesOf(answer: Answer, adapter: Adapter, pools: readonly string[], credentials: Credentials): RoleResolution {
  const id = `${adapterId(adapter)}\u0000${credentials.kind}\u0000${credentials.name}\u0000${pools.join('\u0000')}`;
  return keptFor(resolutions, answer, id, () =>
    resolveRoles(Object.fromEntries(Object.entries(answer.resources).map(([key, desired]) => [key, desired.resource])), { adapter, pools, credentials }),
  );
}

/** What `compute` gives for `object` under `id`, computed once per pair and kept while the object lives. */
function keptFor<K extends object, V>(cache: WeakMap<K, Map<string, V>>, object: K, id: string, compute: () => V): V {
  let byId = cache.get(object);
  if (!byId) cache.set(object, (byId = new Map()));
  let value = byId.get(id);
  if (value === undefined) byId.set(id, (value = compute()));
  return value;
}

/** One reconcile by the engine against the world, then its outcome applied to the world and recorded as a step. */
async function reconcile(
  world: World,
  engine: Reconciler,
  call: Caller,
  index: number,
  phase: string,
  onStep?: SimulateOptions['onStep'],
  remembered?: Record<string, Selector>,
): Promise<{ step: StepRecord; fingerprint: Fingerprint }> {
  let reconciled;
  try {
    reconciled = await engine.reconcile(world, call, remembered);
  } catch (error) {
    throw new Error(`step ${index}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { request, answer: final, calls, satisfied, dropped, xrReady } = reconciled;
  onStep?.(index, request, final);
  world.apply(final, dropped, xrReady);
  const names = Object.fromEntries(
    [...world.observed].map(([key, resource]) => [key, String((resource.metadata as JsonObject).name)]),
  );
  const step: StepRecord = {
    index,
    phase,
    calls,
    requirements: final.requirements,
    satisfied,
    status: final.status,
    resources: final.resources,
    results: final.results,
    dropped,
    xrReady,
    // The world replaces its XR, never changes it (apply): the step keeps that object, uncopied.
    xr: world.xr,
    names,
  };
  return { step, fingerprint: { answer: final, xrReady } };
}

/**
 * What a step answered, for fixpoint detection. readResponse canonicalizes key order, so plain JSON
 * suffices; memoized answers recur across scenarios and ablations, so each is serialized once, and
 * each resource's text also tells the world whether that resource changed.
 */
const answerTexts = new MemoWeakMap<Answer, { rest: string; resources: Map<string, string> }>();

function textsOf(answer: Answer): { rest: string; resources: Map<string, string> } {
  let texts = answerTexts.get(answer);
  if (!texts) {
    const resources = new Map(Object.keys(answer.resources).map((key) => [key, JSON.stringify(answer.resources[key])]));
    texts = { rest: JSON.stringify([answer.requirements, answer.status, answer.results]), resources };
    answerTexts.set(answer, texts);
  }
  return texts;
}

function resourceText(answer: Answer, key: string): string {
  return textsOf(answer).resources.get(key)!;
}

/** What a step answered and the XR's readiness it led to: two steps with equal fingerprints are a fixpoint. */
interface Fingerprint {
  answer: Answer;
  xrReady: boolean;
}

/**
 * Equal when the readiness and every part of the answer's text are: compared part by part (the
 * same answer object, as the memo gives, at once), never joined into one long string to compare.
 */
function sameFingerprint(a: Fingerprint | undefined, b: Fingerprint): boolean {
  if (!a || a.xrReady !== b.xrReady) return false;
  if (a.answer === b.answer) return true;
  const x = textsOf(a.answer);
  const y = textsOf(b.answer);
  if (x.rest !== y.rest || x.resources.size !== y.resources.size) return false;
  const others = y.resources.entries();
  for (const [key, text] of x.resources) {
    const [otherKey, otherText] = others.next().value!;
    if (key !== otherKey || text !== otherText) return false;
  }
  return true;
}

/**
 * Runs one provider × scenario: reconcile until the answer stops changing (or the step cap), then
 * apply the scenario's perturbations, each followed by its steps. Deterministic: same inputs, same trace.
 */
export async function simulate(call: Caller, adapter: Adapter, scenario: Scenario, options: SimulateOptions): Promise<Trace> {
  const world = new World(adapter, scenario, options.withhold);
  const engine = options.engine ?? crossplane;
  const trace: Trace = {
    provider: adapter.name,
    scenario: scenario.name,
    xr: { name: world.xr.metadata.name, namespace: String(world.xr.metadata.namespace), uid: String(world.xr.metadata.uid) },
    credentials: world.credentialsRef,
    steps: [],
    converged: null,
    perturbations: [],
  };
  try {
    let previous: Fingerprint | undefined;
    for (let index = 0; index < options.maxSteps; index += 1) {
      const { step, fingerprint } = await reconcile(world, engine, call, index, 'converge', options.onStep, trace.steps.at(-1)?.requirements);
      trace.steps.push(step);
      if (options.stopOnceAppeared) {
        const appeared = new Set(trace.steps.flatMap((s) => Object.keys(s.resources)));
        if ([...options.stopOnceAppeared].every((key) => appeared.has(key))) break;
      }
      if (sameFingerprint(previous, fingerprint)) {
        trace.converged = { step: index - 1, xrReady: step.xrReady };
        break;
      }
      previous = fingerprint;
    }
    if (!trace.converged) return trace;
    for (const perturbation of scenario.then) {
      world.perturb(perturbation);
      const record: PerturbationRecord = {
        do: perturbation.do,
        ...(perturbation.role ? { role: perturbation.role } : {}),
        ...(perturbation.fact ? { fact: perturbation.fact } : {}),
        from: trace.steps.length,
        to: trace.steps.length + perturbation.steps - 1,
      };
      const phase = [perturbation.do, perturbation.role, perturbation.fact].filter(Boolean).join(' ');
      for (let n = 0; n < perturbation.steps; n += 1) {
        trace.steps.push((await reconcile(world, engine, call, trace.steps.length, phase, options.onStep, trace.steps.at(-1)?.requirements)).step);
      }
      trace.perturbations.push(record);
    }
  } catch (error) {
    trace.error = error instanceof Error ? error.message : String(error);
  }
  return trace;
}
