import type { RunFunctionRequest, RunFunctionResponse } from '@crossplane-org/function-sdk-typescript';
import { roleOf } from '../config/roles.js';
import type { Adapter, K8sObject, Perturbation, Scenario } from '../config/types.js';
import { isObject, type JsonObject } from '../util/objects.js';
import { buildRequest, readResponse, type Answer } from './protocol.js';
import { condition, connectionSecret, materialize, stall } from './materialize.js';
import type { PerturbationRecord, Selector, StepRecord, Trace } from './trace.js';
import { buildXR, worldCredentials } from './xr.js';

/** Sends one RunFunction request to the provider's function. */
export type Caller = (request: RunFunctionRequest) => Promise<RunFunctionResponse>;

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
  /**
   * Start each reconcile's requirements loop from the requirements the previous step settled on,
   * rather than from none as Crossplane does. The settled answer is the same whenever a function asks
   * for the same resources with and without them, and a step then costs one call instead of two; the
   * gating analysis uses this, the renders that become skeletons never do.
   */
  seedRequirements?: boolean;
  /** Receives each step's final request and answer, e.g. to replay them for the determinism check. */
  onStep?: (step: number, request: RunFunctionRequest, answer: Answer) => void;
}

/** Crossplane re-runs a function for its requirements at most this many times, then gives up. */
const MAX_REQUIREMENT_ITERATIONS = 5;

class FatalResult extends Error {}

/** The simulated control plane of one provider × scenario. */
class World {
  readonly xr: K8sObject;
  readonly observed = new Map<string, JsonObject>();
  readonly pools: string[];
  credentialsPresent: boolean;
  readonly credentials: K8sObject[];
  readonly secrets = new Map<string, K8sObject>();
  readonly unready = new Set<string>();

  constructor(
    readonly adapter: Adapter,
    readonly scenario: Scenario,
    readonly withhold: Withhold | undefined,
  ) {
    this.xr = buildXR(adapter, scenario);
    this.pools = scenario.xr.nodePools.map((pool) => pool.name);
    this.credentials = worldCredentials(adapter, scenario);
    this.credentialsPresent = scenario.world.credentials === 'present' && withhold?.what !== 'credentials';
  }

  private readonly roles = new Map<string, string>();

  role(key: string): string {
    let role = this.roles.get(key);
    if (role === undefined) {
      role = roleOf(this.adapter, key, this.pools);
      this.roles.set(key, role);
    }
    return role;
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

  /** Whether a resource is reconciled through the XR's cloud credentials (its providerConfigRef names them). */
  private usesCredentials(resource: JsonObject): boolean {
    const spec = isObject(resource.spec) ? resource.spec : {};
    const ref = isObject(spec.providerConfigRef) ? spec.providerConfigRef : undefined;
    const expected = this.scenario.xr.credentials ?? { kind: 'ClusterProviderConfig', name: 'default' };
    return ref !== undefined && ref.kind === expected.kind && ref.name === expected.name;
  }

  /** Applies the function's answer: composed resources observed, the rest deleted, the XR's status fed back. */
  apply(answer: Answer): { dropped: string[]; xrReady: boolean } {
    const dropped = [...this.observed.keys()].filter((key) => !(key in answer.resources)).sort();
    for (const key of dropped) this.observed.delete(key);
    for (const key of Object.keys(answer.resources).sort()) {
      if (this.withhold?.what === 'exists' && this.withhold.key === key) continue;
      const desired = answer.resources[key]!.resource;
      const existing = this.observed.get(key);
      // Without its ProviderConfig a managed resource cannot be reconciled: a new one is never created
      // (never Ready, no cloud facts); one that exists keeps the state it had.
      const stalled = !this.credentialsPresent && this.usesCredentials(desired);
      const facts = this.adapter.world.observe.filter(
        (rule) => rule.kind === desired.kind && !(this.withhold?.what === 'fact' && this.withhold.key === key && this.withhold.fact === rule.fact),
      );
      if (stalled && existing) {
        this.observed.set(key, stall(existing, desired));
        continue;
      }
      const resource = materialize({
        xr: this.xr,
        key,
        desired,
        existingName: isObject(existing?.metadata) ? (existing.metadata.name as string) : undefined,
        ready: !stalled && this.isReady(key),
        synced: !stalled,
        facts: stalled ? [] : facts,
      });
      this.observed.set(key, resource);
    }
    this.refreshSecrets();
    const marks = Object.values(answer.resources).map((resource) => resource.ready);
    const xrReady = answer.compositeReady !== 'Unspecified' ? answer.compositeReady === 'True' : marks.every((mark) => mark === 'True');
    this.xr.status = { ...answer.status, conditions: [condition('Ready', xrReady, xrReady ? 'Available' : 'Creating')] };
    return { dropped, xrReady };
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
        break;
      case 'unready':
        this.unready.add(perturbation.role!);
        for (const [key, resource] of this.observed) {
          if (this.role(key) === perturbation.role && isObject(resource.status)) {
            resource.status.conditions = [condition('Ready', false, 'Unavailable'), condition('Synced', true, 'ReconcileSuccess')];
          }
        }
        break;
      case 'delete':
        for (const key of [...this.observed.keys()]) if (this.role(key) === perturbation.role) this.observed.delete(key);
        this.refreshSecrets();
        break;
    }
  }
}

/** One reconcile, with Crossplane's requirements loop: call again until the requirements settle. */
async function reconcile(
  world: World,
  call: Caller,
  index: number,
  phase: string,
  onStep?: SimulateOptions['onStep'],
  seed?: Record<string, Selector>,
): Promise<{ step: StepRecord; fingerprint: string }> {
  // As Crossplane does: start with no requirements (or the seed); call again with what the function
  // asked for until its requirements equal the previous call's; fail when they never settle.
  let requirements = JSON.stringify(seed ?? {});
  let required = seed ? world.required(seed) : undefined;
  let answer: Answer | undefined;
  let calls = 0;
  let lastRequest: RunFunctionRequest | undefined;
  for (let iteration = 0; ; iteration += 1) {
    const request = buildRequest(world.xr, world.observed, required);
    answer = readResponse(await call(request));
    lastRequest = request;
    calls += 1;
    const fatal = answer.results.find((result) => result.severity === 'Fatal');
    if (fatal) throw new FatalResult(`step ${index}: the function returned a Fatal result: ${fatal.message}`);
    const asked = JSON.stringify(answer.requirements);
    if (asked === requirements) break;
    if (iteration === MAX_REQUIREMENT_ITERATIONS) {
      throw new Error(`step ${index}: the function's requirements did not stabilize after ${MAX_REQUIREMENT_ITERATIONS} iterations, as Crossplane requires`);
    }
    requirements = asked;
    required = world.required(answer.requirements);
  }
  const final = answer!;
  onStep?.(index, lastRequest!, final);
  const satisfied = Object.keys(final.requirements).filter((name) => (required?.[name]?.length ?? 0) > 0).sort();
  const { dropped, xrReady } = world.apply(final);
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
    xr: structuredClone(world.xr),
    names,
  };
  return { step, fingerprint: fingerprint(final, xrReady) };
}

/**
 * What a step answered, for fixpoint detection. readResponse canonicalizes key order, so plain JSON
 * suffices; memoized answers recur across scenarios and ablations, so each is serialized once.
 */
const answerTexts = new WeakMap<Answer, string>();

function fingerprint(answer: Answer, xrReady: boolean): string {
  let text = answerTexts.get(answer);
  if (text === undefined) {
    text = JSON.stringify([answer.requirements, answer.status, answer.resources, answer.results]);
    answerTexts.set(answer, text);
  }
  return `${xrReady}${text}`;
}

/**
 * Runs one provider × scenario: reconcile until the answer stops changing (or the step cap), then
 * apply the scenario's perturbations, each followed by its steps. Deterministic: same inputs, same trace.
 */
export async function simulate(call: Caller, adapter: Adapter, scenario: Scenario, options: SimulateOptions): Promise<Trace> {
  const world = new World(adapter, scenario, options.withhold);
  const trace: Trace = {
    provider: adapter.name,
    scenario: scenario.name,
    xr: { name: world.xr.metadata.name, namespace: String(world.xr.metadata.namespace), uid: String(world.xr.metadata.uid) },
    steps: [],
    converged: null,
    perturbations: [],
  };
  try {
    let previous: string | undefined;
    for (let index = 0; index < options.maxSteps; index += 1) {
      const seed = options.seedRequirements ? trace.steps.at(-1)?.requirements : undefined;
      const { step, fingerprint } = await reconcile(world, call, index, 'converge', options.onStep, seed);
      trace.steps.push(step);
      if (options.stopOnceAppeared) {
        const appeared = new Set(trace.steps.flatMap((s) => Object.keys(s.resources)));
        if ([...options.stopOnceAppeared].every((key) => appeared.has(key))) break;
      }
      if (previous === fingerprint) {
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
        from: trace.steps.length,
        to: trace.steps.length + perturbation.steps - 1,
      };
      const phase = perturbation.role ? `${perturbation.do} ${perturbation.role}` : perturbation.do;
      for (let n = 0; n < perturbation.steps; n += 1) trace.steps.push((await reconcile(world, call, trace.steps.length, phase, options.onStep)).step);
      trace.perturbations.push(record);
    }
  } catch (error) {
    trace.error = error instanceof Error ? error.message : String(error);
  }
  return trace;
}
