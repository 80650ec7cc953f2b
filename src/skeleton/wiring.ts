import type { ResourceSkeleton, SecretEntry, Skeleton } from './types.js';

/** How a skeleton hands off its kubeconfig: the published entry, who writes that Secret, who reads it. */
export interface KubeconfigWiring {
  entry: SecretEntry | undefined;
  writers: Array<[string, ResourceSkeleton]>;
  readers: Array<[string, ResourceSkeleton]>;
}

/**
 * The Secret is written in the XR's namespace (a namespaced managed resource writes into its own),
 * so a write or read counts only with no namespace or `{namespace}`.
 */
export function kubeconfigWiring(skeleton: Skeleton): KubeconfigWiring {
  const entry = skeleton.status.secrets.find((secret) => secret.type === 'Kubeconfig');
  if (!entry) return { entry, writers: [], readers: [] };
  const secret = [entry.name, `{namespace}/${entry.name}`];
  const read = secret.map((name) => `${name}:${entry.key}`);
  const resources = Object.entries(skeleton.resources);
  return {
    entry,
    writers: resources.filter(([, r]) => r.writes !== undefined && secret.includes(r.writes)),
    readers: resources.filter(([, r]) => (r.reads ?? []).some((reads) => read.includes(reads))),
  };
}
