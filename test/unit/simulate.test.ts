/** The reconcile loop against a scripted function: no process, every answer chosen by the test. */
import { RunFunctionResponse, type RunFunctionRequest } from '@crossplane-org/function-sdk-typescript';
import { describe, expect, it } from 'vitest';
import type { Adapter } from '../../src/config/types.js';
import { simulate, type Caller } from '../../src/world/simulate.js';
import { scenarioOf } from '../helpers/fourth.js';

const adapter: Adapter = {
  name: 'scripted',
  file: '/nowhere/provider.yaml',
  dir: '/nowhere',
  function: { command: [], cwd: '/nowhere', env: {} },
  xr: { apiVersion: 'example.org/v1', kind: 'Cluster', spec: {}, nodePool: {}, gpus: {} },
  world: { credentials: [], observe: [] },
  roles: {},
  values: {},
};

/** An answer that asks for one Secret, named `secret-<n>`: a different n is a different requirement. */
function asking(n: number): RunFunctionResponse {
  return RunFunctionResponse.fromPartial({
    requirements: { resources: { credentials: { apiVersion: 'v1', kind: 'Secret', matchName: `secret-${n}` } } },
  });
}

/**
 * A function whose requirement changes on each of its first `changes` calls and then stays; it
 * records every request it is sent.
 */
function settlingAfter(changes: number): { call: Caller; requests: RunFunctionRequest[] } {
  const requests: RunFunctionRequest[] = [];
  const call: Caller = async (request) => {
    requests.push(request);
    return asking(Math.min(requests.length, changes));
  };
  return { call, requests };
}

describe('simulate: the requirements loop', () => {
  // Crossplane calls a function at most six times in one reconcile for its requirements (the first
  // call and five more), then gives up; drift must give up at exactly the same point.
  it('gives up after six calls whose requirements never settle, naming the limit', async () => {
    const requests: RunFunctionRequest[] = [];
    const restless: Caller = async (request) => {
      requests.push(request);
      return asking(requests.length);
    };
    const trace = await simulate(restless, adapter, scenarioOf(), { maxSteps: 3 });
    expect(requests).toHaveLength(6);
    expect(trace.error).toBe("step 0: the function's requirements did not stabilize after 5 iterations, as Crossplane requires");
    expect(trace.steps).toEqual([]);
    expect(trace.converged).toBeNull();
  });

  it('accepts requirements that settle on the sixth call', async () => {
    // Calls 1-5 each ask for something new; call 6 repeats call 5: settled, just within the limit.
    const { call, requests } = settlingAfter(5);
    const trace = await simulate(call, adapter, scenarioOf(), { maxSteps: 3 });
    expect(trace.error).toBeUndefined();
    expect(trace.steps[0]!.calls).toBe(6);
    expect(trace.steps[0]!.requirements).toEqual({ credentials: { apiVersion: 'v1', kind: 'Secret', matchName: 'secret-5' } });
    // Each call but the first was sent what the previous one asked for.
    expect(requests.slice(0, 6).map((request) => Object.keys(request.requiredResources))).toEqual([[], ...Array(5).fill(['credentials'])]);
  });

  it('the next reconcile starts from the remembered requirements and settles in one call', async () => {
    const { call, requests } = settlingAfter(2);
    const trace = await simulate(call, adapter, scenarioOf(), { maxSteps: 3 });
    expect(trace.steps.map((step) => step.calls)).toEqual([3, 1]);
    expect(trace.converged).toEqual({ step: 0, xrReady: true });
    expect(Object.keys(requests[3]!.requiredResources)).toEqual(['credentials']);
  });
});
