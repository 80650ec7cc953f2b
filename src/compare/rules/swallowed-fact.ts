import type { RuleContext, RuleMeta, Violation } from './types.js';

/** What `drift rules`, docs/rules.md and the contract say about this rule. */
export const meta: RuleMeta = {
  id: 'swallowed-fact',
  description: 'An error raised while reading observed state is never caught whole and dropped: the gate it decides must not fail silently.',
  rationale:
    'A `try` around an observed fact with `except: pass` (or `except Exception:` that neither raises nor reports) turns any mistake in the read, a typo or a changed field, into "the fact is not there yet": the gate stays closed (or open) for ever, and no event says why. Only the source shows it; the rendered answer looks like a cloud that is slow.',
  class: 'contract',
  appliesWhen:
    'Every scenario, from the provider\'s source (the outline\'s handler.scm query): an `except` that catches everything (bare, `Exception`, `BaseException`) and neither raises nor emits a result, or a `with suppress(Exception):`, whose `try` reads observed state (through a function of the provider that reads it, or in the function holding it). A narrow `except KeyError:` for an absent fact is the usual idiom and is not one.',
  examples: {
    violation: '`try: email = self._observed_fact("service-account", "status", "atProvider", "email") except Exception: pass`.',
    fix: 'Read the fact with the helper that returns None while it is unknown (or catch only the error an absent field raises, `KeyError`), and let any other error surface.',
  },
};

export function check({ swallowed }: RuleContext): Violation[] {
  return (swallowed ?? []).map((fact) => ({
    subject: fact.qualified,
    message: `${fact.qualified} catches every error around ${fact.reads.length ? fact.reads.join(', ') : 'its read of observed state'} and drops it (line ${fact.line}): a failing read looks like a fact not observed yet`,
    place: fact.place,
    fix: `In ${fact.qualified}, catch only what an absent field raises (\`except (KeyError, TypeError):\`) or read the fact through a helper that returns None while it is unknown, and let any other error surface.`,
  }));
}
