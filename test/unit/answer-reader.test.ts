/** The wire reader must read exactly what the generated decoder and toAnswer read, and reject nothing it would accept wrongly. */
import { readFileSync } from 'node:fs';
import { Ready, RunFunctionResponse, Severity } from '@crossplane-org/function-sdk-typescript';
import { describe, expect, it } from 'vitest';
import { readAnswer } from '../../src/functions/answerReader.js';
import { decodeResponse, readAnswers } from '../../src/functions/wireResponse.js';
import { readResponse } from '../../src/world/protocol.js';

/** Real answers of the bundled functions (a run's answer cache, seven per provider): 4-byte length, then the bytes. */
function bundledAnswers(): Uint8Array[] {
  const data = readFileSync(new URL('../fixtures/answers/bundled.bin', import.meta.url));
  const answers: Uint8Array[] = [];
  for (let at = 0; at < data.length; ) {
    const length = data.readUInt32BE(at);
    answers.push(data.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return answers;
}

/** What drift read before the wire reader: the generated decoder, then toAnswer (a plain decoded message is not remembered). */
const reference = (bytes: Uint8Array) => JSON.stringify(readResponse(RunFunctionResponse.decode(bytes)));

/** What the generated decoder says of the garbage fixture (a meta field claiming 2^31 bytes). */
const GENERATED_REJECTS = 'cant skip wire type 7';

/** A length-delimited field (its length under 128). */
const message = (field: number, bytes: Uint8Array) => new Uint8Array([(field << 3) | 2, bytes.length, ...bytes]);

const encode = (response: Partial<RunFunctionResponse>) => RunFunctionResponse.encode(RunFunctionResponse.fromPartial(response)).finish();

describe('readAnswer', () => {
  it('reads every bundled answer as the generated decoder and toAnswer do, key order included', () => {
    const answers = bundledAnswers();
    expect(answers.length).toBe(35);
    for (const bytes of answers) expect(JSON.stringify(readAnswer(bytes))).toBe(reference(bytes));
  });

  it('sorts keys at every depth, keeps list order, and reads every kind of value', () => {
    const bytes = encode({
      desired: {
        composite: { resource: { status: { zeta: 1, alpha: { b: [3, 'x', null, true, { d: 1, c: 2 }], a: -0 } } }, connectionDetails: {}, ready: Ready.READY_TRUE },
        resources: {
          b: { resource: { kind: 'K', apiVersion: 'v1', metadata: { name: 'ünïcode ✓', labels: { '10': 'ten', '9': 'nine', x: '' } } }, connectionDetails: {}, ready: Ready.READY_FALSE },
          a: { resource: { spec: { long: 'y'.repeat(300), empty: {}, list: [] } }, connectionDetails: {}, ready: 7 as Ready },
        },
      },
      results: [
        { severity: Severity.SEVERITY_NORMAL, message: 'fine', reason: 'Because', target: 0 },
        { severity: 9 as Severity, message: '' },
      ],
      requirements: {
        extraResources: {},
        schemas: {},
        resources: {
          z: { apiVersion: 'v1', kind: 'Secret', matchName: 'creds', namespace: 'ns' },
          a: { apiVersion: 'v1', kind: 'ConfigMap', matchLabels: { labels: { b: '2', a: '1' } }, namespace: '' },
        },
      },
      context: { anything: { goes: [1, 2] } },
      output: { also: 'ignored' },
      meta: { tag: 't', ttl: { seconds: 60, nanos: 0 } },
    });
    const read = readAnswer(bytes);
    expect(JSON.stringify(read)).toBe(reference(bytes));
    expect(Object.is((read.status.alpha as { a: number }).a, -0)).toBe(true);
    expect(read.resources.a!.ready).toBe('Unspecified');
    expect(read.results[1]!.severity).toBe('Warning');
  });

  it('reads malformed UTF-8 in keys and values as the generated decoder does (replacement characters, a BOM kept)', () => {
    const bytes = Buffer.from(encode({ desired: { composite: { resource: { status: { KEYAA: 'VALUEAAAA', other: '\ufeffbom' } }, connectionDetails: {}, ready: 0 as Ready }, resources: {} } }));
    // Same lengths, so every length prefix stays true: a stray continuation byte, a truncated sequence, an overlong form, a surrogate.
    const patch = (from: string, to: number[]) => bytes.set(to, bytes.indexOf(Buffer.from(from)));
    patch('AA', [0x80, 0xe2]);
    patch('AAAA', [0xc0, 0xaf, 0xed, 0xa0]);
    expect(bytes.includes(Buffer.from('AA'))).toBe(false);
    const read = readAnswer(bytes);
    expect(JSON.stringify(read)).toBe(reference(bytes));
    expect(Object.keys(read.status)).toContain('KEY\ufffd\ufffd');
  });

  it('keeps the last of a key met twice, in its sorted place, as the generated decoder does', () => {
    const number = (n: number) => new Uint8Array([0x11, ...new Uint8Array(new Float64Array([n]).buffer)]);
    const field = (key: string, value: Uint8Array) => message(1, new Uint8Array([0x0a, key.length, ...Buffer.from(key), ...message(2, value)]));
    const struct = new Uint8Array([...field('b', number(2)), ...field('a', number(1)), ...field('c', number(4)), ...field('a', number(3))]);
    const twice = message(2, message(2, new Uint8Array([0x0a, 1, 0x72, ...message(2, message(1, struct))])));
    expect(JSON.stringify(readAnswer(twice))).toBe(reference(twice));
    expect(readAnswer(twice).resources.r!.resource).toEqual({ a: 3, b: 2, c: 4 });
    // Two desired states: the second replaces the first, as the generated decoder assigns it.
    const one = encode({ desired: { composite: undefined, resources: { r: { resource: { a: 1, b: 2 }, connectionDetails: {}, ready: 0 } } } });
    const two = encode({ desired: { composite: undefined, resources: { q: { resource: { a: 3 }, connectionDetails: {}, ready: 0 } } } });
    const merged = new Uint8Array([...one, ...two]);
    expect(JSON.stringify(readAnswer(merged))).toBe(reference(merged));
  });

  it("reads a Value with two kinds as Go's protobuf (Crossplane's) does, the last, and rejects what the generated decoder rejects", () => {
    const value = new Uint8Array([0x1a, 1, 0x73, 0x11, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f]);
    const twoKinds = message(2, message(2, new Uint8Array([0x0a, 1, 0x72, ...message(2, message(1, message(1, new Uint8Array([0x0a, 1, 0x61, ...message(2, value)]))))])));
    expect(readAnswer(twoKinds).resources.r!.resource).toEqual({ a: 1 });
    const garbage = new Uint8Array([0x0a, 0x80, 0x80, 0x80, 0x80, 0x08, ...Buffer.from('garbage')]);
    expect(() => readAnswer(garbage)).toThrow('length beyond the message');
    expect(() => decodeResponse(garbage)).toThrow('length beyond the message');
    expect(() => RunFunctionResponse.decode(garbage)).toThrow(GENERATED_REJECTS);
    // Field number 0 and an end of group with none open: no protobuf message (Go's decoder rejects both).
    for (const bytes of [new Uint8Array([0x02, 0]), new Uint8Array([0x0c])]) expect(() => readAnswer(bytes)).toThrow(/^tag/);
  });

  it('skips what drift ignores as the generated decoder does: connection details, extra resources and schemas required, groups, unknown fields', () => {
    const bytes = encode({
      desired: { composite: { resource: { status: { a: 1 } }, connectionDetails: { password: Buffer.from('secret') }, ready: Ready.READY_TRUE }, resources: { r: { resource: { kind: 'K' }, connectionDetails: { k: Buffer.from('v') }, ready: 0 } } },
      requirements: { extraResources: { old: { apiVersion: 'v1', kind: 'Secret', matchName: 'x' } }, schemas: { s: { apiVersion: 'v1', kind: 'Secret' } }, resources: { new: { apiVersion: 'v1', kind: 'ConfigMap', matchName: 'y' } } },
    });
    expect(JSON.stringify(readAnswer(bytes))).toBe(reference(bytes));
    // An unknown field 15 as a group holding a varint, a nested group and a string, then a varint field 16 beside it.
    const group = new Uint8Array([0x7b, 0x08, 0x01, 0x8b, 0x01, 0x8c, 0x01, 0x12, 0x01, 0x78, 0x7c, 0x80, 0x01, 0x05]);
    const withGroup = new Uint8Array([...group, ...bytes]);
    expect(JSON.stringify(readAnswer(withGroup))).toBe(reference(withGroup));
    expect(() => readAnswer(new Uint8Array([0x7b, 0x08, 0x01, 0x84, 0x01]))).toThrow('invalid end group tag');
  });
});

describe('readAnswer checking the fields it ignores', () => {
  it('checks meta, context, conditions and output as the generated decoder does: one it rejects is rejected', () => {
    const meta = { tag: 'checked', ttl: { seconds: 60, nanos: 0 } };
    const answer = encode({ meta, context: { a: { b: [1] } }, output: { o: 'x' }, conditions: [{ type: 'Synced', status: 1, reason: 'R', message: 'm', target: 1 }], desired: { composite: undefined, resources: {} } });
    expect(JSON.stringify(readAnswer(answer))).toBe(reference(answer));
    // Each with a field of wire type 7 inside, which neither decoder can skip: meta, its ttl, the context, a condition.
    for (const rejected of [message(1, new Uint8Array([0x0f])), message(1, message(2, new Uint8Array([0x0f]))), message(4, new Uint8Array([0x0f])), message(6, new Uint8Array([0x0f]))]) {
      expect(() => RunFunctionResponse.decode(rejected)).toThrow(/wire type 7/);
      expect(() => readAnswer(rejected)).toThrow(/wire type 7/);
    }
  });
});

describe('readAnswer with the bodies read before', () => {
  it('shares a resource body whose bytes it read before, and reads a changed one anew', () => {
    const body = (region: string) => ({ kind: 'Cluster', spec: { forProvider: { region } } });
    const answer = (region: string) => encode({ desired: { composite: undefined, resources: { same: { resource: body('a'), connectionDetails: {}, ready: 0 }, moved: { resource: body(region), connectionDetails: {}, ready: 0 } } } });
    const bodies = new Map();
    const first = readAnswer(answer('a'), bodies);
    const second = readAnswer(answer('b'), bodies);
    expect(second.resources.same!.resource).toBe(first.resources.same!.resource);
    // Equal bytes under another key are the same body too.
    expect(first.resources.moved!.resource).toBe(first.resources.same!.resource);
    expect(second.resources.moved!.resource).not.toBe(first.resources.moved!.resource);
    expect(second.resources.moved!.resource).toEqual(body('b'));
    expect(JSON.stringify(second)).toBe(reference(answer('b')));
    expect(bodies.size).toBe(2);
  });
});

describe('decodeResponse', () => {
  it("gives the answer read from the bytes, and says that a generated message's field is not read", () => {
    for (const bytes of bundledAnswers().slice(0, 5)) {
      const response = decodeResponse(bytes);
      expect(JSON.stringify(readResponse(response))).toBe(reference(bytes));
      expect(() => response.desired).toThrow("drift reads a function's answer from its wire bytes");
    }
  });

  it('reads equal bytes once per owner of a ReadAnswers: the same answer, each copy of the bytes its own response', () => {
    const [first, second] = bundledAnswers();
    const read = readAnswers();
    const a = decodeResponse(Uint8Array.from(first!), read);
    const b = decodeResponse(Uint8Array.from(first!), read);
    const other = decodeResponse(second!, read);
    expect(b).not.toBe(a);
    expect(readResponse(b)).toBe(readResponse(a));
    expect(readResponse(other)).not.toBe(readResponse(a));
    expect(JSON.stringify(readResponse(other))).toBe(reference(second!));
    expect(read.answers.size).toBe(2);
    // Without one, every response is read anew.
    expect(readResponse(decodeResponse(first!))).not.toBe(readResponse(decodeResponse(first!)));
  });
});
