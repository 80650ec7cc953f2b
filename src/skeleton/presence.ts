import { CONTRACT_ROLES } from '../roles/catalog.js';
import type { Skeleton } from './types.js';

/**
 * How a provider plays a contract role: with a resource of its own (`composed`), inside another
 * composed resource (`inline`, e.g. a system pool declared in the cluster), or not at all. This is
 * the value the `presence` facet compares; absence is a value only here.
 */
export type Presence = 'composed' | 'inline' | 'absent';

export function presenceOf(skeleton: Skeleton, role: string): Presence {
  if (Object.values(skeleton.resources).some((resource) => resource.role === role)) return 'composed';
  return skeleton.inline?.[role] !== undefined ? 'inline' : 'absent';
}

/** The contract roles a skeleton plays, composed or inline. */
export function rolesPresent(skeleton: Skeleton): string[] {
  const roles = [...Object.values(skeleton.resources).map((resource) => resource.role), ...Object.keys(skeleton.inline ?? {})];
  return [...new Set(roles.filter((role) => CONTRACT_ROLES.has(role)))].sort();
}

/**
 * A key as providers can be compared on it: its contract role, else its plane (`cloud-resource`,
 * `in-cluster-resource`, `neither-resource`), since cloud-only keys are not matched by name.
 */
export function subjectRole(skeleton: Skeleton, key: string): string {
  const resource = skeleton.resources[key];
  const role = resource?.role ?? key;
  if (CONTRACT_ROLES.has(role)) return role;
  return `${resource?.plane ?? 'cloud'}-resource`;
}
