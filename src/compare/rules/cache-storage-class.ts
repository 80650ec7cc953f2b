import type { RuleContext, RuleMeta, Violation } from './types.js';

/** What `drift rules`, docs/rules.md and the contract say about this rule. */
export const meta: RuleMeta = {
  id: 'cache-storage-class',
  description: 'With credentials present and everything Ready, status.cache.storageClassName is published and an Object composes a StorageClass of that name.',
  rationale: 'Model caches mount the RWX class by the name in status; a name nothing creates leaves every cache Pending.',
  class: 'contract',
  appliesWhen: 'Scenarios with credentials present and everything Ready, once the loop has converged.',
  examples: {
    violation: 'status.cache.storageClassName is modelplane-rwx, but no composed Object carries a StorageClass of that name.',
    fix: 'Compose the storage-class-rwx Object whose manifest is the StorageClass named in status.cache.storageClassName.',
  },
};

export function check({ skeleton, scenario }: RuleContext): Violation[] {
  if (skeleton.error || !skeleton.converged || scenario.world.ready !== 'all' || scenario.world.credentials !== 'present') return [];
  const name = skeleton.status.cache?.storageClassName;
  if (!name) return [{ subject: 'status.cache', message: 'status.cache.storageClassName is not published' }];
  const composed = Object.values(skeleton.resources).some((r) => r.manifest === `StorageClass/${name}`);
  return composed ? [] : [{ subject: 'status.cache', message: `no Object composes StorageClass ${name}` }];
}
