import type { K8sObject } from '../config/types.js';
import type { JsonObject } from '../util/objects.js';

export type ReadyMark = 'True' | 'False' | 'Unspecified';
export type Severity = 'Normal' | 'Warning' | 'Fatal';

export interface Selector {
  apiVersion: string;
  kind: string;
  matchName?: string;
  matchLabels?: Record<string, string>;
  namespace?: string;
}

export interface DesiredResource {
  resource: JsonObject;
  ready: ReadyMark;
}

export interface EventRecord {
  severity: Severity;
  message: string;
  reason?: string;
}

/** One reconcile: the function's final answer after its requirements settled. */
export interface StepRecord {
  index: number;
  /** `converge`, or the perturbation this step follows (`remove-credentials`, `unready cluster`, ...). */
  phase: string;
  /** RunFunction calls this step took (requirement round-trips included). */
  calls: number;
  requirements: Record<string, Selector>;
  /** Which requirements the world answered with at least one resource. */
  satisfied: string[];
  status: JsonObject;
  resources: Record<string, DesiredResource>;
  results: EventRecord[];
  /** Composed keys this step deleted: observed before, not desired any more. */
  dropped: string[];
  xrReady: boolean;
  /** The XR as observed after this step: status from the function, Ready derived as Crossplane does. */
  xr: K8sObject;
  /** Observed names of the composed resources after this step. */
  names: Record<string, string>;
}

export interface PerturbationRecord {
  do: string;
  role?: string;
  fact?: string;
  /** Steps that followed it, by index. */
  from: number;
  to: number;
}

export interface Trace {
  provider: string;
  scenario: string;
  xr: { name: string; namespace: string; uid: string };
  /** The XR's cloud credentials (its ProviderConfig): what makes a resource a cloud resource. Default ClusterProviderConfig/default. */
  credentials?: { kind: string; name: string };
  steps: StepRecord[];
  /** The first step whose answer no longer changes, or null when the step cap came first. */
  converged: { step: number; xrReady: boolean } | null;
  perturbations: PerturbationRecord[];
  /** Set when the simulation could not finish: a Fatal result, a crash, a hang, garbage. */
  error?: string;
}
