import { DriftError } from '../errors.js';
import type { Environment } from './envVars.js';

/** What drift writes into the checkout, each of which a policy may forbid. */
export type Written = 'goldens' | 'accepted' | 'contract';

/** What drift may write, and what it says when it may not. */
export interface WritePolicy {
  readonly may: Readonly<Record<Written, boolean>>;
  /** Why nothing is written, and what to do instead: the whole message users see. */
  readonly refusal: string;
}

/** How a run behaves apart from what it writes. */
export interface RunPolicy {
  /**
   * Strict: a provider without goldens fails the diff (no new-provider note) and a stale accepted
   * entry is a failing finding.
   */
  readonly strict: boolean;
  /** One live progress line per provider on stderr. */
  readonly progress: boolean;
}

/** Both policies of one drift invocation, resolved once at its edge (cli/main.ts) and passed down. */
export interface Policy {
  readonly write: WritePolicy;
  readonly run: RunPolicy;
}

const CI_REFUSAL = 'CI is set: drift never writes goldens in CI. Run `drift update` locally (or comment `/drift update` on the pull request) and commit the result.';

/** Whether drift runs in CI: `CI` set to anything but `false` or `0`, as CI services set it. */
function isCI(env: Environment): boolean {
  const value = env.CI;
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}

/**
 * The policy of an invocation from its environment and whether its stderr is a terminal. The only
 * reader of `CI`: under CI drift writes nothing in the checkout, is strict, and draws no progress
 * (logs stay clean).
 */
export function resolvePolicy(env: Environment, terminal: boolean): Policy {
  const ci = isCI(env);
  return {
    write: { may: { goldens: !ci, accepted: !ci, contract: !ci }, refusal: CI_REFUSAL },
    run: { strict: ci, progress: terminal && !ci },
  };
}

/**
 * A checkout of one's own with no terminal: everything may be written, nothing is strict. What a
 * project loaded without a policy from an edge (a test, a library call) runs under.
 */
export const LOCAL_POLICY: Policy = resolvePolicy({}, false);

/** Throws the policy's refusal, before anything is written, unless it allows writing `what`. */
export function refuseUnless(policy: WritePolicy, what: Written): void {
  if (!policy.may[what]) throw new DriftError(policy.refusal);
}
