import { escapeRegExp } from '../util/objects.js';
import type { Adapter } from './types.js';

/**
 * The contract's roles and the keys the bundled providers use for them. An adapter's `roles` map
 * extends or overrides these; a key matching neither is cloud-only and plays the role of its own key.
 */
export const CONTRACT_KEYS: Readonly<Record<string, string>> = {
  network: 'network',
  subnet: 'subnet',
  cluster: 'cluster',
  'nodepool-system': 'system-pool',
  'nodepool-{pool}': 'node-pool',
  'provider-config-kubernetes': 'provider-config-kubernetes',
  'provider-config-helm': 'provider-config-helm',
  'storage-class-rwx': 'cache-storage-class',
};

export const CONTRACT_ROLES: ReadonlySet<string> = new Set(Object.values(CONTRACT_KEYS));


function patternRegExp(pattern: string, pools: readonly string[]): RegExp {
  const source = pattern
    .split(/(\{[a-z]+\})/)
    .map((part) => {
      if (part === '{pool}') return pools.length ? `(?:${pools.map(escapeRegExp).join('|')})` : '[a-z0-9-]+';
      if (/^\{[a-z]+\}$/.test(part)) return '[a-z0-9-]+';
      return escapeRegExp(part);
    })
    .join('');
  return new RegExp(`^${source}$`);
}

/** The role a composed key plays for this adapter, given the scenario's pool names. */
export function roleOf(adapter: Pick<Adapter, 'roles'>, key: string, pools: readonly string[]): string {
  const tables = [adapter.roles, CONTRACT_KEYS];
  for (const table of tables) {
    const exact = table[key];
    if (exact !== undefined) return exact;
  }
  for (const table of tables) {
    for (const [pattern, role] of Object.entries(table)) {
      if (pattern.includes('{') && patternRegExp(pattern, pools).test(key)) return role;
    }
  }
  return key;
}

/** The key with pool names abstracted (`nodepool-gpu` → `nodepool-{pool}`), for comparing naming styles. */
export function keyPattern(key: string, pools: readonly string[]): string {
  for (const pool of [...pools].sort((a, b) => b.length - a.length)) {
    const suffix = `-${pool}`;
    if (key.endsWith(suffix)) return `${key.slice(0, -suffix.length)}-{pool}`;
  }
  return key;
}
