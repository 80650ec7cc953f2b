/** Hints read as sentences: a value that ends its own sentence is quoted, and the wording check (test/helpers/hintWording.ts) catches each slip issue 37 found. */
import { describe, expect, it } from 'vitest';
import { asClause, facetValueInWords } from '../../src/compare/summary.js';
import { hintProblems } from '../helpers/hintWording.js';

const finding = (hint: string, more: Record<string, unknown> = {}) => ({ id: 'div:events:events:eks', hint, provider: 'eks', ...more });

describe('a value in a hint', () => {
  it('is quoted when it ends a sentence of its own, so the hint goes on without a doubled stop', () => {
    expect(facetValueInWords('events', 'events', 'Waiting for NodeGroup.')).toBe('"Waiting for NodeGroup."');
    expect(facetValueInWords('events', 'events', 'Waiting for NodeGroup')).toBe('Waiting for NodeGroup');
    const hint = `the convention is ${facetValueInWords('events', 'events', 'Waiting for NodePool.')}; eks has ${facetValueInWords('events', 'events', 'Waiting for NodeGroup.')}.`;
    expect(hintProblems(finding(hint))).toEqual([]);
  });
});

describe('a reason in a hint', () => {
  it('is a clause: its closing period dropped, so the sentence around it ends once', () => {
    const hint = `accepted gke as true because ${asClause('GKE publishes its key.')}. Make gke hold it again`;
    expect(hint).toBe('accepted gke as true because GKE publishes its key. Make gke hold it again');
    expect(hintProblems(finding(hint))).toEqual([]);
  });
});

describe('the hint wording check', () => {
  it('finds a doubled accept, a doubled period, a run-on stop, and passes the --reason placeholder', () => {
    expect(hintProblems(finding('fix it, or accept it with a reason: drift accept x, or accept it'))).toHaveLength(1);
    expect(hintProblems(finding('eks has Waiting for NodeGroup..'))).toHaveLength(1);
    expect(hintProblems(finding('eks has Waiting for NodeGroup.; accept it'))).toHaveLength(1);
    expect(hintProblems(finding(`make eks follow it, or accept it with a reason: drift accept 'div:x:y:eks' --reason "..."`))).toEqual([]);
  });

  it('finds "every other provider" that the values deny, and a stale entry replaced by the regression', () => {
    const values = { aks: 'a', eks: 'b', gke: 'a', nebius: 'c' };
    expect(hintProblems(finding('Every other provider does it this way', { values, consensus: 'a' }))).toHaveLength(1);
    expect(hintProblems(finding('Every other provider does it this way', { values: { aks: 'a', eks: 'b', gke: 'a' }, consensus: 'a' }))).toEqual([]);
    const stale = { id: 'accepted-stale:3', hint: "replace the entry (drift accept 'split:x:y' --reason \"...\")" };
    expect(hintProblems(stale, { regressions: ['split:x:y'] })).toHaveLength(1);
    expect(hintProblems(stale, { regressions: ['div:x:y:gke'] })).toEqual([]);
  });
});
