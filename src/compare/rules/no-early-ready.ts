import type { RuleContext, RuleMeta, Violation } from './types.js';

/** What `drift rules`, docs/rules.md and the contract say about this rule. */
export const meta: RuleMeta = {
  id: 'no-early-ready',
  description: 'A cloud resource is marked READY_TRUE only after the world reports it Ready: never the step it is composed, never in a world where nothing becomes Ready.',
  rationale: 'Marking a cloud resource ready on compose makes the XR Ready before its infrastructure exists.',
  class: 'contract',
  appliesWhen: 'Every scenario; every resource on the cloud plane (in-cluster resources may be ready on compose).',
  examples: {
    violation: 'mark_readiness sets READY_TRUE on the cluster the step it first composes it.',
    fix: 'Set READY_TRUE only when the resource\'s observed Ready condition is True.',
  },
};

export function check({ skeleton, scenario }: RuleContext): Violation[] {
  return Object.entries(skeleton.resources)
    .filter(([, resource]) => resource.plane === 'cloud' && resource.ready !== null)
    .filter(([, resource]) => scenario.world.ready === 'none' || resource.readyBy === 'composed')
    .map(([key, resource]) => ({
      subject: key,
      message:
        scenario.world.ready === 'none'
          ? `${key} is marked READY_TRUE although the world never reports it Ready`
          : `${key} is marked READY_TRUE the step it is composed (step ${resource.appears}), before the world could report it Ready`,
    }));
}
