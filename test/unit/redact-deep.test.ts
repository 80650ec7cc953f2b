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
