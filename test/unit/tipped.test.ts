/** What a newcomer does to the others (src/compare/tipped.ts): one tipped finding per subject and facet, with its decision. */
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/compare/findings.js';
import { tippedConventions } from '../../src/compare/tipped.js';

const tippedOf = (input: Parameters<typeof tippedConventions>[0]) => tippedConventions(input).findings;

const style = (provider: string, consensus: unknown = 'absent'): Finding => ({
  id: `style:_identity_secret:helper-presence:${provider}`,
  type: 'style',
  class: 'stylistic',
  provider,
  subject: '_identity_secret',
  facet: 'helper-presence',
  message: 'm',
  values: { acme: 'absent', aks: 'defined', nebius: 'defined' },
  consensus,
  hint: 'h',
});

describe('tippedConventions', () => {
  it('makes the established providers a newcomer would blame one finding on its side, naming the one command that decides it', () => {
    const [tipped, ...rest] = tippedOf({ newcomers: ['acme'], withNewcomers: [style('aks'), style('nebius'), style('acme', 'defined')], without: [], reported: new Set() });
    expect(rest).toEqual([]);
    expect(tipped).toMatchObject({ id: 'tip:_identity_secret:helper-presence:acme', type: 'tipped', class: 'stylistic', provider: 'acme', tipped: { effect: 'form', blames: ['aks', 'nebius'] } });
    expect(tipped!.tipped!.decision).toBe(`drift accept 'style:_identity_secret:helper-presence:aks' 'style:_identity_secret:helper-presence:nebius' --reason "..."`);
  });

  it('says nothing of what the others fail on without the newcomer, what is accepted, or what its own run reports', () => {
    const accepted = { ...style('nebius'), accepted: { reason: 'r' } };
    expect(tippedOf({ newcomers: ['acme'], withNewcomers: [style('aks'), accepted], without: [style('aks')], reported: new Set() })).toEqual([]);
    const split: Finding = { id: 'split:cluster:events', type: 'split', class: 'behavioral', subject: 'cluster', facet: 'events', message: 'm', hint: 'h' };
    expect(tippedOf({ newcomers: ['acme'], withNewcomers: [split], without: [], reported: new Set([split.id]) })).toEqual([]);
    expect(tippedOf({ newcomers: [], withNewcomers: [style('aks')], without: [], reported: new Set() })).toEqual([]);
  });

  it('tells a convention tipped from one formed, and an agreement dissolved into a split', () => {
    const before: Finding = { ...style('eks', 'defined') };
    expect(tippedOf({ newcomers: ['acme'], withNewcomers: [style('aks')], without: [before], reported: new Set() })[0]!.tipped!.effect).toBe('tip');
    const split: Finding = { id: 'split:cluster:events', type: 'split', class: 'behavioral', subject: 'cluster', facet: 'events', message: 'm', hint: 'h' };
    const [dissolved] = tippedOf({ newcomers: ['acme'], withNewcomers: [split], without: [], reported: new Set() });
    expect(dissolved).toMatchObject({ id: 'tip:cluster:events:acme', tipped: { effect: 'dissolve', blames: [], decision: `drift accept 'split:cluster:events' --reason "..."` } });
  });
});
