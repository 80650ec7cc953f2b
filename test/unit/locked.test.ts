/** Candidate and locked conventions on hand-built facets. */
import { describe, expect, it } from 'vitest';
import { applyAccepted } from '../../src/compare/acceptance.js';
import type { Facet } from '../../src/compare/cross.js';
import { candidateConventions, checkLocked, type LockedConvention, type ScenarioFacets } from '../../src/compare/locked.js';

const facet = (values: Record<string, unknown>, subject = 'node-pool', name = 'key-pattern'): Facet => ({ subject, facet: name, class: 'stylistic', values: new Map(Object.entries(values)) });
const scenario = (name: string, ...facets: Facet[]): ScenarioFacets => ({ scenario: name, facets });
const PROVIDERS = ['a', 'b', 'c'];
const LOCK: LockedConvention = { facet: 'key-pattern', subject: 'node-pool', values: { converge: ['nodepool-{pool}'] }, reason: 'people find pools by name' };

describe('candidate conventions', () => {
  it('are the facets every provider agrees on in every scenario, with the value in words', () => {
    const candidates = candidateConventions(
      [scenario('converge', facet({ a: 1, b: 1, c: 1 }), facet({ a: 1, b: 1, c: 2 }, 'cluster')), scenario('lost', facet({ a: 2, b: 2, c: 2 }))],
      PROVIDERS,
    );
    expect(candidates.map((c) => [c.subject, c.facet, c.words])).toEqual([['node-pool', 'key-pattern', 'converge: 1; lost: 2']]);
  });

  it('need at least three providers, and every one of them', () => {
    expect(candidateConventions([scenario('converge', facet({ a: 1, b: 1 }))], ['a', 'b'])).toEqual([]);
    expect(candidateConventions([scenario('converge', facet({ a: 1, b: 1 }))], PROVIDERS)).toEqual([]);
  });
});

describe('locked conventions', () => {
  it('flag every provider that differs, even a majority', () => {
    const findings = checkLocked([LOCK], [scenario('converge', facet({ a: ['nodepool-{pool}'], b: ['pool-{pool}'], c: ['pool-{pool}'] }))], PROVIDERS);
    expect(findings.map((f) => [f.id, f.class])).toEqual([
      ['locked:key-pattern:node-pool:b', 'contract'],
      ['locked:key-pattern:node-pool:c', 'contract'],
    ]);
  });

  it('flag a provider that lacks the subject where the convention holds', () => {
    const findings = checkLocked([LOCK], [scenario('converge', facet({ a: ['nodepool-{pool}'], b: ['nodepool-{pool}'] }))], PROVIDERS);
    expect(findings.map((f) => f.id)).toEqual(['locked:key-pattern:node-pool:c']);
  });

  it('that no provider matches any more are reported once, blaming nobody', () => {
    const findings = checkLocked([LOCK], [scenario('converge', facet({ a: ['pool-{pool}'], b: ['pool-{pool}'], c: ['pool-{pool}'] }))], PROVIDERS);
    expect(findings.map((f) => [f.id, f.provider])).toEqual([['locked:key-pattern:node-pool', undefined]]);
  });

  it('let a provider hold a documented exception through an accepted entry', () => {
    const findings = checkLocked([LOCK], [scenario('converge', facet({ a: ['nodepool-{pool}'], b: ['nodepool-{pool}'], c: ['pool-{pool}'] }))], PROVIDERS);
    const judged = applyAccepted(findings, [{ facet: 'key-pattern', subject: 'node-pool', providers: ['c'], reason: 'c names pools by its cloud' }], { strict: false, file: 'goldens/accepted.yaml' });
    expect(judged.map((f) => [f.id, f.accepted?.reason])).toEqual([['locked:key-pattern:node-pool:c', 'c names pools by its cloud']]);
  });
});
