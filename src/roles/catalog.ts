import { escapeRegExp } from '../util/objects.js';

/** What of an adapter the role names depend on: its overrides, composed key pattern → role. */
export interface RoleOverrides {
  roles: Record<string, string>;
}

/**
 * The contract's roles. drift infers which composed resource plays each one (src/roles/resolve.ts);
 * an adapter's `roles` map only overrides that inference. A key playing none is cloud-only.
 */
export const CONTRACT_ROLES: ReadonlySet<string> = new Set([
  'network',
  'subnet',
  'cluster',
  'system-pool',
  'node-pool',
  'provider-config-kubernetes',
  'provider-config-helm',
  'cache-storage-class',
]);

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

/** The role an adapter's `roles` map gives a key (exact keys before patterns), if it gives one. */
export function overrideRole(adapter: RoleOverrides, key: string, pools: readonly string[]): string | undefined {
  const exact = adapter.roles[key];
  if (exact !== undefined) return exact;
  for (const [pattern, role] of Object.entries(adapter.roles)) {
    if (pattern.includes('{') && patternRegExp(pattern, pools).test(key)) return role;
  }
  return undefined;
}

/** The key with pool names abstracted (`nodepool-gpu` → `nodepool-{pool}`), for comparing naming styles. */
export function keyPattern(key: string, pools: readonly string[]): string {
  for (const pool of [...pools].sort((a, b) => b.length - a.length)) {
    const suffix = `-${pool}`;
    if (key.endsWith(suffix)) return `${key.slice(0, -suffix.length)}-{pool}`;
  }
  return key;
}
