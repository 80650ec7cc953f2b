import type { Adapter } from '../config/types.js';
import { hasConditions } from '../world/materialize.js';
import type { Withhold } from '../world/simulate.js';
import type { Trace } from '../world/trace.js';

/** A fact to withhold and the gate name it yields: `cluster.exists`, `cluster.ready`, `network.external-name`, `credentials`. */
export interface Ablation {
  gate: string;
  withhold: Withhold;
}

function appeared(trace: Trace): Set<string> {
  return new Set(trace.steps.filter((step) => step.phase === 'converge').flatMap((step) => Object.keys(step.resources)));
}

/**
 * The first round: the credentials and each resource's existence. A resource that is never observed
 * is never Ready and carries no facts, so its `.ready` and facts can only gate what its existence
 * already gates; `followUps` tests them only for resources whose existence gates something.
 */
export function ablationsFor(baseline: Trace): Ablation[] {
  const out: Ablation[] = [];
  // Without its ProviderConfig no cloud resource is created, whether or not the function requires it.
  out.push({ gate: 'credentials', withhold: { what: 'credentials' } });
  for (const key of [...appeared(baseline)].sort()) out.push({ gate: `${key}.exists`, withhold: { what: 'exists', key } });
  return out;
}

/** The second round for one resource whose existence gates something: its Ready condition and its facts. */
export function followUps(adapter: Adapter, baseline: Trace, key: string): Ablation[] {
  const last = baseline.steps.filter((step) => step.phase === 'converge').at(-1);
  const kind = last?.resources[key]?.resource.kind;
  const out: Ablation[] = [];
  if (hasConditions(kind)) out.push({ gate: `${key}.ready`, withhold: { what: 'ready', key } });
  for (const rule of adapter.world.observe) {
    if (rule.kind === kind) out.push({ gate: `${key}.${rule.fact}`, withhold: { what: 'fact', key, fact: rule.fact } });
  }
  return out;
}

/** Whether a run lost any key the baseline composed. */
export function hidesSomething(baseline: Trace, run: Trace): boolean {
  if (run.error) return false;
  const seen = appeared(run);
  return [...appeared(baseline)].some((key) => !seen.has(key));
}

/**
 * Gates per key: the facts without which the key never appears. A gate on a resource's Ready
 * condition or on one of its facts implies its existence, so `<key>.exists` is dropped beside them;
 * what stays says precisely what the function waits for.
 */
export function gatesFrom(baseline: Trace, runs: Array<{ gate: string; trace: Trace }>): Record<string, string[]> {
  const base = appeared(baseline);
  const gates: Record<string, Set<string>> = {};
  for (const { gate, trace } of runs) {
    if (trace.error) continue;
    const seen = appeared(trace);
    for (const key of base) {
      if (!seen.has(key)) (gates[key] ??= new Set()).add(gate);
    }
  }
  const out: Record<string, string[]> = {};
  for (const key of Object.keys(gates).sort()) {
    const set = gates[key]!;
    const reduced = [...set].filter((gate) => {
      if (!gate.endsWith('.exists')) return true;
      const subject = gate.slice(0, -'.exists'.length);
      return ![...set].some((other) => other !== gate && other.startsWith(`${subject}.`));
    });
    out[key] = reduced.sort();
  }
  return out;
}
