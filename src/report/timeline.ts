/**
 * The reconcile timeline of each rendered cell, for the conformance page: when each composed key
 * appeared and when the function first marked it ready. Taken from the skeletons the run produced
 * (structurally: report/ does not import the skeleton layer), so the page can draw it from the JSON
 * report alone, as the comment job renders it.
 */
import { compareText } from '../util/objects.js';
import type { Timeline } from './model.js';

/** The part of a skeleton a timeline reads. */
interface TimedSkeleton {
  converged: { step: number; xrReady: boolean } | null;
  error?: string;
  resources: Record<string, { role: string; appears: number; ready: number | null; readyBy: 'composed' | 'observed' | null; dropped?: number }>;
}

/** timelines[provider][scenario], in the order given; cells that failed to render have none. */
export function timelinesOf(cells: ReadonlyArray<{ provider: string; scenario: string; skeleton: TimedSkeleton }>): Record<string, Record<string, Timeline>> {
  const out: Record<string, Record<string, Timeline>> = {};
  for (const { provider, scenario, skeleton } of cells) {
    if (skeleton.error) continue;
    const resources = Object.entries(skeleton.resources)
      .sort(([a], [b]) => compareText(a, b))
      .map(([key, resource]) => ({
        key,
        role: resource.role,
        appears: resource.appears,
        ready: resource.ready,
        ...(resource.readyBy ? { readyBy: resource.readyBy } : {}),
        ...(resource.dropped !== undefined ? { dropped: resource.dropped } : {}),
      }));
    (out[provider] ??= {})[scenario] = { converged: skeleton.converged?.step ?? null, xrReady: skeleton.converged?.xrReady ?? false, resources };
  }
  return out;
}
