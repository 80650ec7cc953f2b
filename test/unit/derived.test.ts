/** Derived name suffixes: found by comparing two answers under different XR names, never by their look. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { derivedTokens } from '../../src/skeleton/derivedTokens.js';
import { makeTemplater } from '../../src/skeleton/template.js';

const NAMES = { base: 'demo', twin: 'drift-twin' };
const hash5 = (name: string) => createHash('sha256').update(name).digest('hex').slice(0, 5);

/** What a function answers for an XR called `name`: its kubeconfig Secret carries `suffix(name)`. */
function answer(name: string, suffix: (name: string) => string) {
  return {
    resources: {
      cluster: { resource: { spec: { writeConnectionSecretToRef: { name: `${name}-${suffix(name)}-kubeconfig` }, forProvider: { subnet: `${name}-subnet-a`, zone: 'us-east-1a' } } } },
      pools: { resource: { spec: { forProvider: { names: [`${name}-gpu`, `${name}-system`] } } } },
    },
    status: { secrets: [{ name: `${name}-${suffix(name)}-kubeconfig` }] },
    results: [{ message: `cluster ${name} waits` }],
  };
}

describe('derivedTokens', () => {
  it('finds a 5-hex suffix derived from the XR name, wherever it is written', () => {
    expect(derivedTokens(answer('demo', hash5), answer('drift-twin', hash5), NAMES)).toEqual([hash5('demo')]);
  });

  it('finds a suffix of any length, and one with letters beyond hex', () => {
    const long = (name: string) => createHash('sha256').update(name).digest('hex').slice(0, 20);
    expect(derivedTokens(answer('demo', long), answer('drift-twin', long), NAMES)).toEqual([long('demo')]);
    const base36 = (name: string) => (name === 'demo' ? 'k9zq7' : 'p2mx4');
    expect(derivedTokens(answer('demo', base36), answer('drift-twin', base36), NAMES)).toEqual(['k9zq7']);
  });

  it('keeps what does not change with the name literal, however hash-like: abcde, subnet-a, a zone', () => {
    expect(derivedTokens(answer('demo', () => 'abcde'), answer('drift-twin', () => 'abcde'), NAMES)).toEqual([]);
    expect(derivedTokens(answer('demo', () => 'subnet'), answer('drift-twin', () => 'subnet'), NAMES)).toEqual([]);
  });

  it('ignores strings that do not line up (punctuation moved, token count changed) and short runs', () => {
    expect(derivedTokens({ a: 'demo-x1y2z3' }, { a: 'drift-twin.q9w8e7' }, NAMES)).toEqual([]);
    expect(derivedTokens({ a: 'demo-a1b2c' }, { a: 'drift-twin-a1-b2c' }, NAMES)).toEqual([]);
    expect(derivedTokens({ a: 'demo-7' }, { a: 'drift-twin-9' }, NAMES)).toEqual([]);
    // Present on one side only: nothing to compare it with.
    expect(derivedTokens({ a: 'demo-a1b2c' }, { b: 'drift-twin-f0e9d' }, NAMES)).toEqual([]);
  });

  it('is sorted and without repeats', () => {
    const base = { a: 'demo-fff01', b: ['demo-aaa02', 'demo-fff01'] };
    const twin = { a: 'drift-twin-00001', b: ['drift-twin-00002', 'drift-twin-00001'] };
    expect(derivedTokens(base, twin, NAMES)).toEqual(['aaa02', 'fff01']);
  });
});

describe('makeTemplater with derived tokens', () => {
  const template = makeTemplater({ xr: 'demo', namespace: 'ml-team', values: { region: 'us-east-1' }, derived: ['3f9a1', 'us-east-1'] });

  it('templates a derived token to {hash} between non-alphanumeric boundaries only', () => {
    expect(template('demo-3f9a1-kubeconfig')).toBe('{xr}-{hash}-kubeconfig');
    expect(template('ml-team/demo-3f9a1-kubeconfig:kubeconfig')).toBe('{namespace}/{xr}-{hash}-kubeconfig:kubeconfig');
    expect(template('x3f9a1 3f9a1x')).toBe('x3f9a1 3f9a1x');
  });

  it('leaves literal suffixes alone, and a known value keeps its own name', () => {
    expect(template('demo-subnet-a')).toBe('{xr}-subnet-a');
    expect(template('demo-abcde')).toBe('{xr}-abcde');
    expect(template('us-east-1')).toBe('{region}');
  });
});
