import type { RunFunctionRequest, RunFunctionResponse } from '@crossplane-org/function-sdk-typescript';
import type { K8sObject } from '../config/types.js';
import { compareText, isObject, sortKeys, type JsonObject } from '../util/objects.js';
import type { DesiredResource, EventRecord, ReadyMark, Selector } from './trace.js';

/**
 * The function protocol's enums, as apiextensions.fn.proto.v1 numbers them (run_function.proto);
 * test/unit/protocol.test.ts holds them to the function SDK's, which drift uses for its types only.
 */
export const Ready = { READY_UNSPECIFIED: 0, READY_TRUE: 1, READY_FALSE: 2 } as const;
export const ProtoSeverity = { SEVERITY_UNSPECIFIED: 0, SEVERITY_FATAL: 1, SEVERITY_WARNING: 2, SEVERITY_NORMAL: 3 } as const;
export const Capability = { CAPABILITY_CAPABILITIES: 1, CAPABILITY_REQUIRED_RESOURCES: 2, CAPABILITY_CREDENTIALS: 3, CAPABILITY_CONDITIONS: 4 } as const;

const CAPABILITIES = [
  Capability.CAPABILITY_CAPABILITIES,
  Capability.CAPABILITY_REQUIRED_RESOURCES,
  Capability.CAPABILITY_CREDENTIALS,
  Capability.CAPABILITY_CONDITIONS,
];

/**
 * The request Crossplane sends the first function of a pipeline: desired state is empty. Every
 * field of the message is given, as the SDK's `RunFunctionRequest.fromPartial` would fill it (the
 * protocol test holds the two equal).
 */
export function buildRequest(
  xr: K8sObject,
  observed: ReadonlyMap<string, JsonObject>,
  required: Record<string, K8sObject[]> | undefined,
): RunFunctionRequest {
  return {
    meta: { tag: '', capabilities: [...CAPABILITIES] },
    observed: {
      composite: { resource: xr, connectionDetails: {}, ready: Ready.READY_UNSPECIFIED },
      resources: Object.fromEntries(
        [...observed].map(([key, resource]) => [key, { resource, connectionDetails: {}, ready: Ready.READY_UNSPECIFIED }]),
      ),
    },
    desired: { composite: undefined, resources: {} },
    input: undefined,
    context: {},
    extraResources: {},
    credentials: {},
    requiredResources: Object.fromEntries(
      Object.entries(required ?? {}).map(([name, items]) => [name, { items: items.map((resource) => ({ resource, connectionDetails: {}, ready: Ready.READY_UNSPECIFIED })) }]),
    ),
    requiredSchemas: {},
  };
}

const READY_MARKS: Record<number, ReadyMark> = {
  [Ready.READY_TRUE]: 'True',
  [Ready.READY_FALSE]: 'False',
  [Ready.READY_UNSPECIFIED]: 'Unspecified',
};

const SEVERITIES: Record<number, EventRecord['severity']> = {
  [ProtoSeverity.SEVERITY_NORMAL]: 'Normal',
  [ProtoSeverity.SEVERITY_WARNING]: 'Warning',
  [ProtoSeverity.SEVERITY_FATAL]: 'Fatal',
  // Crossplane logs an unknown severity as a warning ("assuming warning"), so drift does too.
  [ProtoSeverity.SEVERITY_UNSPECIFIED]: 'Warning',
};

/** The parts of a response the world acts on, as plain data. */
export interface Answer {
  requirements: Record<string, Selector>;
  status: JsonObject;
  compositeReady: ReadyMark;
  resources: Record<string, DesiredResource>;
  results: EventRecord[];
}

/**
 * Protobuf maps and Struct fields carry no order, and a Python function's wire order changes from
 * process to process; sorting keys here keeps traces byte-identical across runs. List order is the
 * function's own and is kept.
 */
function sortedEntries<T>(map: Record<string, T>): Array<[string, T]> {
  return Object.entries(map).sort(([a], [b]) => compareText(a, b));
}

/**
 * A memoized response is read by every simulation that reaches it; read it once. Answers are never
 * mutated (the world copies what it changes), so sharing them is safe.
 */
const answers = new WeakMap<RunFunctionResponse, Answer>();

/** An answer already read from the response's wire bytes (functions/answerReader.ts): readResponse returns it. */
export function rememberAnswer(response: RunFunctionResponse, answer: Answer): void {
  answers.set(response, answer);
}

export function readResponse(response: RunFunctionResponse): Answer {
  let answer = answers.get(response);
  if (!answer) {
    answer = toAnswer(response);
    answers.set(response, answer);
  }
  return answer;
}

function toAnswer(response: RunFunctionResponse): Answer {
  const requirements: Record<string, Selector> = {};
  for (const [name, selector] of sortedEntries(response.requirements?.resources ?? {})) {
    requirements[name] = {
      apiVersion: selector.apiVersion,
      kind: selector.kind,
      ...(selector.matchName !== undefined ? { matchName: selector.matchName } : {}),
      ...(selector.matchLabels ? { matchLabels: sortKeys({ ...selector.matchLabels.labels }) as Record<string, string> } : {}),
      ...(selector.namespace ? { namespace: selector.namespace } : {}),
    };
  }
  const composite = response.desired?.composite;
  const status = composite?.resource?.status;
  const resources: Record<string, DesiredResource> = {};
  for (const [key, desired] of sortedEntries(response.desired?.resources ?? {})) {
    resources[key] = { resource: sortKeys(desired.resource ?? {}) as JsonObject, ready: READY_MARKS[desired.ready] ?? 'Unspecified' };
  }
  return {
    requirements,
    status: isObject(status) ? (sortKeys(status) as JsonObject) : {},
    compositeReady: composite ? READY_MARKS[composite.ready] ?? 'Unspecified' : 'Unspecified',
    resources,
    results: response.results.map((result) => ({
      severity: SEVERITIES[result.severity] ?? 'Warning',
      message: result.message,
      ...(result.reason ? { reason: result.reason } : {}),
    })),
  };
}
