/** The request writer must write, byte for byte, what the generated encoder writes. */
import { readFileSync } from 'node:fs';
import { Ready, RunFunctionRequest } from '@crossplane-org/function-sdk-typescript';
import { describe, expect, it } from 'vitest';
import { writeRequest } from '../../src/functions/requestWriter.js';
import { encodeRequest } from '../../src/functions/encode.js';
import { readAnswer } from '../../src/functions/answerReader.js';
import { buildRequest } from '../../src/world/protocol.js';
import type { K8sObject } from '../../src/config/types.js';
import type { JsonObject } from '../../src/util/objects.js';

const generated = (request: RunFunctionRequest) => Buffer.from(RunFunctionRequest.encode(request).finish());

function expectSameBytes(request: RunFunctionRequest): void {
  const expected = generated(request);
  expect(Buffer.from(writeRequest(request)).equals(expected)).toBe(true);
  expect(Buffer.from(encodeRequest(request)).equals(expected)).toBe(true);
  // Again, from the entries kept by the first encoding (another request object: the same one would be given its bytes back).
  expect(Buffer.from(encodeRequest({ ...request })).equals(expected)).toBe(true);
}

const xr: K8sObject = { apiVersion: 'x.modelplane.ai/v1', kind: 'GKECluster', metadata: { name: 'demo', namespace: 'ml-team', uid: 'u1' }, spec: { region: 'r' } };

/** The desired resources of real answers of the bundled functions, as observed state. */
function bundledResources(): Array<[string, JsonObject]> {
  const data = readFileSync(new URL('../fixtures/answers/bundled.bin', import.meta.url));
  const resources: Array<[string, JsonObject]> = [];
  for (let at = 0; at < data.length; ) {
    const length = data.readUInt32BE(at);
    const answer = readAnswer(data.subarray(at + 4, at + 4 + length));
    for (const [key, desired] of Object.entries(answer.resources)) resources.push([key, desired.resource]);
    at += 4 + length;
  }
  return resources;
}

describe('writeRequest', () => {
  it('writes the generated encoder bytes for requests built from real answers', () => {
    const resources = bundledResources();
    expect(resources.length).toBeGreaterThan(100);
    for (let i = 0; i < resources.length; i += 9) {
      const observed = new Map(resources.slice(i, i + 9));
      expectSameBytes(buildRequest({ ...xr, status: { conditions: [{ type: 'Ready', status: 'False' }] } }, observed, undefined));
      expectSameBytes(buildRequest(xr, observed, { creds: [xr], none: [] }));
    }
  });

  it('writes every kind of value, long messages, and what the generated encoder drops or keeps', () => {
    const odd: JsonObject = {
      ünïcode: 'ü ✓ 𝄞 \ud800 lone surrogate',
      long: 'z'.repeat(70),
      longer: 'é'.repeat(20000),
      '': 'empty key',
      numbers: [0, -0, 1.5, -2, 1e300, Number.NaN, Number.MAX_SAFE_INTEGER],
      nested: { list: [[], {}, null, true, false, undefined, [{ deep: [[['x']]] }]] },
      gone: undefined,
      '10': 'integer-like',
      '9': 'keys',
      // Either side of the one-byte lengths of a short field: ASCII fits, three-byte characters do not.
      ['k'.repeat(42)]: 'v'.repeat(42),
      ['é'.repeat(42)]: 'é'.repeat(42),
      threeBytes: '✓'.repeat(42),
      ['x'.repeat(43)]: 'y'.repeat(43),
      surrogates: '𝄞'.repeat(21),
    };
    const request = RunFunctionRequest.fromPartial({
      meta: { tag: 'tagged', capabilities: [] },
      observed: {
        composite: { resource: odd, connectionDetails: { password: Buffer.from('secret') }, ready: Ready.READY_TRUE },
        resources: { a: { resource: odd, connectionDetails: {}, ready: Ready.READY_FALSE }, '': { connectionDetails: {}, ready: -1 as Ready } },
      },
      desired: { composite: { resource: {}, connectionDetails: {}, ready: 0 }, resources: { d: { resource: { big: 'q'.repeat(200000) }, connectionDetails: {}, ready: 0 } } },
      input: { apiVersion: 'in/v1' },
      context: { 'apiextensions.crossplane.io/environment': { a: 1 } },
      extraResources: { extra: { items: [{ resource: { kind: 'E' }, connectionDetails: {}, ready: 0 }] } },
      requiredResources: { req: { items: [] }, other: { items: [{ resource: { kind: 'R' }, connectionDetails: {}, ready: 0 }] } },
    });
    expectSameBytes(request);
    expectSameBytes(RunFunctionRequest.fromPartial({}));
    expect(generated(request).length).toBeGreaterThan(200000);
  });

  it("refuses what drift's world never sends: credentials, required schemas, a readiness that is not an int32", () => {
    const base = buildRequest(xr, new Map(), undefined);
    const credentials = RunFunctionRequest.fromPartial({ ...base, credentials: { creds: { credentialData: { data: { key: Buffer.from('v') } } } } });
    const schemas = RunFunctionRequest.fromPartial({ ...base, requiredSchemas: { schema: { openapiV3: { type: 'object' } } } });
    for (const request of [credentials, schemas]) expect(() => writeRequest(request)).toThrow('drift writes no credentials or required schemas');
    const fractional = { ...base, observed: { composite: { resource: xr, connectionDetails: {}, ready: 1.5 as Ready }, resources: {} } };
    expect(() => writeRequest(fractional)).toThrow("a resource's readiness must be an int32 of the Ready enum, not 1.5");
  });

  it('writes an object shared by resources under other keys, or nested, with each place its own key', () => {
    const shared: JsonObject = { forProvider: { region: 'r', labels: { a: 'b' } } };
    const first = buildRequest({ ...xr, spec: shared }, new Map([['a', { kind: 'A', spec: shared }]]), undefined);
    const second = buildRequest({ ...xr, status: shared }, new Map([['b', { kind: 'B', status: shared, spec: { inner: shared } }], ['c', { kind: 'C', spec: shared }]]), { req: [{ ...xr, metadata: shared as never }] });
    // Each written after the other has filled the writer's per-object bytes.
    for (const request of [first, second, first, second]) expect(Buffer.from(writeRequest(request)).equals(generated(request))).toBe(true);
    expectSameBytes(second);
  });

  it('fails on a value protobuf cannot hold, as the generated encoder does', () => {
    const request = buildRequest({ ...xr, spec: { when: BigInt(1) as unknown as string } }, new Map(), undefined);
    expect(() => generated(request)).toThrow('Unsupported any value type: bigint');
    expect(() => writeRequest(request)).toThrow('Unsupported any value type: bigint');
  });
});
