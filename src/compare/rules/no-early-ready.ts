import { isInCluster, type Rule } from './types.js';

export const noEarlyReady: Rule = {
  id: 'no-early-ready',
  description: 'A cloud resource is marked READY_TRUE only after the world reports it Ready.',
  rationale: 'Marking a cloud resource ready on compose makes the XR Ready before its infrastructure exists.',
  check({ skeleton, scenario }) {
    if (scenario.world.ready !== 'none') return [];
    return Object.entries(skeleton.resources)
      .filter(([, resource]) => resource.ready !== null && !isInCluster(resource.apiVersion))
      .map(([key]) => ({ subject: key, message: `${key} is marked READY_TRUE although the world never reports it Ready` }));
  },
};
