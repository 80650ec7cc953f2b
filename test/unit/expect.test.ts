/** What the others' conventions and the locked conventions require of one provider. */
import { describe, expect, it } from 'vitest';
import type { Facet } from '../../src/compare/cross.js';
import { expectationsFor } from '../../src/compare/expectations.js';

const facet = (values: Record<string, unknown>, subject = 'node-pool', name = 'labels'): Facet => ({ subject, facet: name, class: 'behavioral', values: new Map(Object.entries(values)) });

describe('expectationsFor', () => {
  it("takes the others' convention, the provider taking no part in the vote", () => {
    const [line] = expectationsFor('new', [{ scenario: 'converge', facets: [facet({ a: 1, b: 1, c: 2, new: 2 })] }], [], true);
    expect(line).toEqual({ scenario: 'converge', subject: 'node-pool', facet: 'labels', expect: '1', by: 'convention of a, b', status: 'not met' });
  });

  it('lists nothing where the others hold no convention, and no status for a provider not rendered', () => {
    expect(expectationsFor('new', [{ scenario: 'converge', facets: [facet({ a: 1, b: 2, c: 3 })] }], [], false)).toEqual([]);
    expect(expectationsFor('new', [{ scenario: 'converge', facets: [facet({ a: 1, b: 1 })] }], [], false)).toEqual([{ scenario: 'converge', subject: 'node-pool', facet: 'labels', expect: '1', by: 'convention of a, b' }]);
  });

  it('lets a locked convention override the majority', () => {
    const locked = [{ facet: 'labels', subject: 'node-pool', values: { converge: 2 }, reason: 'pools are found by it' }];
    const [line] = expectationsFor('new', [{ scenario: 'converge', facets: [facet({ a: 1, b: 1, c: 2, new: 2 })] }], locked, true);
    expect(line).toMatchObject({ expect: '2', by: 'locked: pools are found by it', status: 'met' });
  });

  it('expects nothing of a rendered provider on a facet it has no value for, as drift diff judges nothing there (absence is presence\'s)', () => {
    expect(expectationsFor('new', [{ scenario: 'converge', facets: [facet({ a: 1, b: 1, c: 1 })] }], [], true)).toEqual([]);
    // Not rendered, the line still says what is required.
    expect(expectationsFor('new', [{ scenario: 'converge', facets: [facet({ a: 1, b: 1, c: 1 })] }], [], false)).toHaveLength(1);
  });
});

describe('expectationsFor with accepted entries', () => {
  const facets = [{ scenario: 'converge', facets: [facet({ a: 1, b: 1, c: 1, new: 2 }, 'kubeconfig', 'writer')] }];

  it('shows an accepted divergence of the provider as accepted, with its reason, not as not met', () => {
    const accepted = [{ facet: 'writer', subject: 'kubeconfig', providers: ['new'], reason: 'new hands off the kubeconfig another way' }];
    const [line] = expectationsFor('new', facets, [], true, accepted);
    expect(line).toMatchObject({ status: 'accepted', accepted: 'new hands off the kubeconfig another way' });
  });

  it("does not let another provider's entry, or one for another facet, cover it", () => {
    const accepted = [
      { facet: 'writer', subject: 'kubeconfig', providers: ['a'], reason: 'a only' },
      { facet: 'readers', subject: 'kubeconfig', providers: ['new'], reason: 'another facet' },
    ];
    expect(expectationsFor('new', facets, [], true, accepted)[0]?.status).toBe('not met');
  });

  it('matches an entry by the id drift diff would print', () => {
    const accepted = [{ id: 'div:converge:kubeconfig:writer:new', reason: 'by id' }];
    expect(expectationsFor('new', facets, [], true, accepted)[0]?.status).toBe('accepted');
  });
});
