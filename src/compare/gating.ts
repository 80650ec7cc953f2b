import type { Adapter } from '../config/types.js';
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

/** Every single fact of the baseline world that could gate something. */
export function ablationsFor(adapter: Adapter, baseline: Trace): Ablation[] {
  const out: Ablation[] = [];
  if (adapter.world.credentials.length) out.push({ gate: 'credentials', withhold: { what: 'credentials' } });
  const last = baseline.steps.filter((step) => step.phase === 'converge').at(-1);
  for (const key of [...appeared(baseline)].sort()) {
    out.push({ gate: `${key}.exists`, withhold: { what: 'exists', key } });
    out.push({ gate: `${key}.ready`, withhold: { what: 'ready', key } });
    const kind = last?.resources[key]?.resource.kind;
    for (const rule of adapter.world.observe) {
      if (rule.kind === kind) out.push({ gate: `${key}.${rule.fact}`, withhold: { what: 'fact', key, fact: rule.fact } });
    }
  }
  return out;
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
