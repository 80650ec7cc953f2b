import type { Rule } from './types.js';

export const noEarlyReady: Rule = {
  id: 'no-early-ready',
  description: 'A cloud resource is marked READY_TRUE only after the world reports it Ready: never the step it is composed, never in a world where nothing becomes Ready.',
  rationale: 'Marking a cloud resource ready on compose makes the XR Ready before its infrastructure exists.',
  check({ skeleton, scenario }) {
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
  },
};
