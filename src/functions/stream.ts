import { yamlLibrary } from '../util/yamlLibrary.js';
import { COMPOSITION_RESOURCE_NAME } from '../world/materialize.js';
import type { StepRecord } from '../world/trace.js';
import { isObject, k8sOrder } from '../util/objects.js';

const READY_NAMES = { True: 'READY_TRUE', False: 'READY_FALSE', Unspecified: 'READY_UNSPECIFIED' } as const;
const SEVERITY_NAMES = { Normal: 'SEVERITY_NORMAL', Warning: 'SEVERITY_WARNING', Fatal: 'SEVERITY_FATAL' } as const;

function doc(value: unknown, comment?: string): string {
  const document = new (yamlLibrary().Document)(k8sOrder(value));
  if (comment) document.commentBefore = ` ${comment}`;
  return document.toString({ lineWidth: 0 });
}

/**
 * One step as a `---` separated YAML stream in `crossplane render`'s shape: the XR with its status
 * and derived Ready condition, composed resources by key, results; then a Step document with what
 * `crossplane render` has no place for (readiness marks, requirements, drops).
 */
export function renderStep(step: StepRecord): string {
  const docs = [doc(step.xr, `step ${step.index} (${step.phase}): the XR as observed after this step`)];
  for (const key of Object.keys(step.resources).sort()) {
    const { resource, ready } = step.resources[key]!;
    const metadata = isObject(resource.metadata) ? resource.metadata : {};
    const annotations = isObject(metadata.annotations) ? metadata.annotations : {};
    const name = step.names[key] ?? metadata.name;
    const composed = {
      ...resource,
      metadata: { ...metadata, ...(name ? { name } : {}), annotations: { ...annotations, [COMPOSITION_RESOURCE_NAME]: key } },
    };
    docs.push(doc(composed, `${key}: ${READY_NAMES[ready]}`));
  }
  for (const result of step.results) {
    docs.push(
      doc({
        apiVersion: 'render.crossplane.io/v1beta1',
        kind: 'Result',
        severity: SEVERITY_NAMES[result.severity],
        message: result.message,
        ...(result.reason ? { reason: result.reason } : {}),
      }),
    );
  }
  docs.push(
    doc(
      {
        apiVersion: 'render.drift.modelplane.ai/v1alpha1',
        kind: 'Step',
        step: step.index,
        phase: step.phase,
        calls: step.calls,
        xrReady: step.xrReady,
        ready: Object.fromEntries(Object.keys(step.resources).sort().map((key) => [key, READY_NAMES[step.resources[key]!.ready]])),
        requirements: step.requirements,
        satisfied: step.satisfied,
        dropped: step.dropped,
      },
      step.dropped.length ? `DROPPED (deleted by this step): ${step.dropped.join(', ')}` : undefined,
    ),
  );
  return docs.map((text) => `---\n${text}`).join('');
}
