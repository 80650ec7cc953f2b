import { describe, expect, it } from 'vitest';
import { redactDeep, redactor } from '../../src/util/redact.js';

const redact = redactor({ DEMO_TOKEN: 'tok-123456' }, { root: ['/work/project'], roots: new Map(), home: ['/home/al'], tmp: ['/tmp'], python: new Map() });

describe('redactDeep', () => {
  it('returns the same object, not a copy, when nothing in it is a secret or a machine path', () => {
    const answer = { desired: { resources: [{ name: 'cluster', body: { spec: { region: 'us-east1' } } }] }, results: [] };
    expect(redactDeep(answer, redact)).toBe(answer);
  });

  it('redacts keys and values at any depth, keeping the order of keys and items', () => {
    const answer = { a: 'keep', '/work/project/file.py': 1, b: { c: ['x', 'token tok-123456', 'y'], d: { e: '/home/al/.kube' } }, f: 'last' };
    const clean = redactDeep(answer, redact);
    expect(clean).toEqual({ a: 'keep', './file.py': 1, b: { c: ['x', 'token <DEMO_TOKEN>', 'y'], d: { e: '~/.kube' } }, f: 'last' });
    expect(Object.keys(clean)).toEqual(['a', './file.py', 'b', 'f']);
    expect(answer.b.c[1]).toBe('token tok-123456'); // the input is never changed
  });

  it('shares what did not change with the input, so a clean branch costs no copy', () => {
    const clean = { spec: { region: 'eu' } };
    const answer = { clean, dirty: { path: '/tmp/x' }, list: [clean, '/tmp/y'] };
    const out = redactDeep(answer, redact);
    expect(out).not.toBe(answer);
    expect(out.clean).toBe(clean);
    expect(out.list[0]).toBe(clean);
    expect(out).toEqual({ clean, dirty: { path: '<tmp>/x' }, list: [clean, '<tmp>/y'] });
  });
});

describe('Redact.foundIn', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);

  it('finds every secret and folder the redactor replaces in UTF-8 bytes, also inside a larger buffer', () => {
    for (const text of ['token tok-123456', 'at /work/project/x.py', 'é /home/al', '/tmp']) {
      expect(redact(text)).not.toBe(text);
      expect(redact.foundIn(bytes(text))).toBe(true);
      const framed = bytes(`\u0000\u0012${text}\u00ff`);
      expect(redact.foundIn(framed.subarray(2, framed.length - 2))).toBe(true);
    }
  });

  it('finds nothing in bytes that hold no needle, so an answer of them is not walked', () => {
    expect(redact.foundIn(bytes('apiVersion: container.gcp.upbound.io/v1beta2 region us-east1'))).toBe(false);
    expect(redact.foundIn(bytes('/wor/tm/home/a'))).toBe(false);
  });

  it('is a superset of what the redactor replaces: a text it changes always has its bytes found', () => {
    const parts = ['/tmp', '/tmpx', '/home/al', '/home/alice', 'tok-123456', 'tok-12345', '/work/project', 'é', ' ', '-', '/'];
    let seed = 7;
    const changed: string[] = [];
    for (let round = 0; round < 500; round++) {
      let text = '';
      for (let index = 0; index < 4; index++) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        text += parts[seed % parts.length];
      }
      if (redact(text) !== text) changed.push(text);
    }
    expect(changed.length).toBeGreaterThan(100);
    expect(changed.filter((text) => !redact.foundIn(bytes(text)))).toEqual([]);
  });

  it('is false for a redactor with nothing to replace', () => {
    const none = redactor({}, { root: [], roots: new Map(), home: [], tmp: [], python: new Map() });
    expect(none.foundIn(bytes('/tmp/anything'))).toBe(false);
  });
});
