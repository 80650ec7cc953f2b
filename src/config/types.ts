import type { Policy } from '../util/ci.js';
import type { CachePolicy } from '../cache/policy.js';
import type { Environment } from '../util/envVars.js';
import type { Xrd } from './xrd.js';
import type { JsonObject } from '../util/objects.js';

/** A Kubernetes object as plain data. */
export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; [key: string]: unknown };
  [key: string]: unknown;
};

export interface DriftConfig {
  /** Folder every relative path resolves against. */
  root: string;
  /** The config file, when there is one. */
  file?: string;
  /** Folders outside `root` the config's paths may name (`roots:`, as written; see paths.ts). */
  roots?: string[];
  providers: string[];
  scenarios: string[];
  goldens: string;
  /** Folder `drift contract` writes CONTRACT.md, contract.json and the agent skill into. */
  contract: string;
  concurrency: number;
  maxSteps: number;
  timeouts: { startMs: number; callMs: number };
}

/** One rule of the simulated cloud: once a resource of this kind exists, it carries this fact. */
export interface FactRule {
  kind: string;
  fact: string;
  set: Record<string, string>;
}

export interface Adapter {
  name: string;
  file: string;
  dir: string;
  /** `env` sets values; `passEnv` names variables of drift's environment handed on as they are (functions/functionEnv.ts). */
  function: { command: string[]; cwd: string; env: Record<string, string>; passEnv?: string[] };
  xr: {
    apiVersion: string;
    kind: string;
    /** The XR spec as a template: strings may hold `${...}` CEL expressions over the scenario's intent. */
    spec: Record<string, unknown>;
    /** Scenario GPU name -> this cloud's GPU facts, `gpus` in the template's scope. */
    gpus: Record<string, Record<string, unknown>>;
    /** Intent fields (`pools[].zones`) this cloud has no place for -> why; they need not be read. */
    ignore: Record<string, string>;
  };
  /** The XRD the adapter names: every XR drift builds is validated and defaulted against it. */
  xrd?: Xrd;
  world: {
    credentials: K8sObject[];
    observe: FactRule[];
    /**
     * What "credentials unusable" means on this cloud: a JSON merge patch (RFC 7386: null removes)
     * applied to each credentials resource by `break-credentials`.
     */
    brokenCredentials: JsonObject;
  };
  /** Overrides of inferred roles: composed key pattern → role. */
  roles: Record<string, string>;
  /** Roles played inside another resource: role → the role of the resource that holds it (`system-pool: cluster`). */
  inline: Record<string, string>;
  values: Record<string, string>;
  /** Fields that hold node labels beside `labels` and `nodeLabels`, e.g. `kubernetesLabels`. */
  labelFields?: string[];
  /** Values still holding a `drift new-provider` draft's placeholder (`TODO`), with their lines. */
  placeholders?: Array<{ path: string; line: number }>;
  /** Where the function's source is, for its outline: a folder (absolute) and globs inside it (absent: see read.ts). */
  source?: { root: string; include: string[] };
}

export interface ScenarioPool {
  name: string;
  gpu?: string;
  gpuCount?: number;
  nodeCount: number;
  minNodeCount?: number;
  maxNodeCount?: number;
  /** How many zones to spread over, or the zones by name. */
  zones?: number | string[];
}

export type Readiness = 'all' | 'none' | { except: string[] };

export type PerturbationKind = 'remove-credentials' | 'restore-credentials' | 'break-credentials' | 'unready' | 'delete' | 'withdraw-fact';

export interface Perturbation {
  do: PerturbationKind;
  /** The role `unready` and `delete` act on; for `withdraw-fact`, narrows it to that role's resources. */
  role?: string;
  /** For `withdraw-fact`: the cloud fact (an adapter `observe` entry's `fact`) that disappears, or `every` one. */
  fact?: string;
  steps: number;
}

/** `withdraw-fact`'s fact that stands for every cloud fact an adapter declares. */
export const EVERY_FACT = 'every';

export interface Scenario {
  name: string;
  file: string;
  description: string;
  xr: {
    name: string;
    namespace: string;
    credentials?: { kind: 'ClusterProviderConfig' | 'ProviderConfig'; name: string };
    nodePools: ScenarioPool[];
  };
  world: { credentials: 'present' | 'missing'; ready: Readiness };
  then: Perturbation[];
  ablate: boolean;
  /**
   * Set on the scenarios drift derives to probe a function (intent coverage), never in a file: what
   * the probe changed, for messages ("drift's gpuCount probe (pools[0].gpuCount = 2)").
   */
  probe?: string;
}

export interface Project {
  config: DriftConfig;
  adapters: Adapter[];
  scenarios: Scenario[];
  /** Things drift could not check (an XRD rule it cannot evaluate), printed before a run. */
  warnings?: string[];
  /** The environment drift runs in (from the CLI edge): the functions' and ruff's. */
  env: Environment;
  /** What the run may write and how strict it is, resolved at the edge (util/ci.ts); the stores take it from here. */
  policy: Policy;
  /** Whether and where the caches are read and written (cache/policy.ts), as the edge resolved it. Absent: no cache. */
  cache?: CachePolicy;
}
