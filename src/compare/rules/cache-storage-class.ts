import type { Rule } from './types.js';

export const cacheStorageClass: Rule = {
  id: 'cache-storage-class',
  description: 'With credentials present and everything Ready, status.cache.storageClassName is published and an Object composes a StorageClass of that name.',
  rationale: 'Model caches mount the RWX class by the name in status; a name nothing creates leaves every cache Pending.',
  check({ skeleton, scenario }) {
    if (skeleton.error || !skeleton.converged || scenario.world.ready !== 'all' || scenario.world.credentials !== 'present') return [];
    const name = skeleton.status.cache?.storageClassName;
    if (!name) return [{ subject: 'status.cache', message: 'status.cache.storageClassName is not published' }];
    const composed = Object.values(skeleton.resources).some((r) => r.manifest === `StorageClass/${name}`);
    return composed ? [] : [{ subject: 'status.cache', message: `no Object composes StorageClass ${name}` }];
  },
};
