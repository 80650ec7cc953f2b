import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/compare/findings.js';
import { describeScenarios, groupAccepted } from '../../src/report/acceptedGroups.js';

const accepted = (provider: string, scenario: string, message: string, reason: string): Finding => ({
  id: `div:${scenario}:x:y:${provider}`,
  type: 'divergence',
  class: 'behavioral',
  provider,
  scenario,
  subject: 'x',
  message,
  hint: 'h',
  accepted: { reason },
});

describe('groupAccepted', () => {
  it('reads a difference accepted once as one group across scenarios, keeping first-seen order', () => {
    const groups = groupAccepted([
      accepted('eks', 'a', 'writer differs', 'cluster-auth'),
      accepted('eks', 'b', 'writer differs', 'cluster-auth'),
      accepted('gke', 'a', 'writer differs', 'cluster-auth'),
      accepted('eks', 'a', 'events differ', 'no requirement'),
    ]);
    expect(groups.map((g) => [g.provider, g.message, g.scenarios, g.ids.length])).toEqual([
      ['eks', 'writer differs', ['a', 'b'], 2],
      ['gke', 'writer differs', ['a'], 1],
      ['eks', 'events differ', ['a'], 1],
    ]);
  });

  it('keeps the same message apart when the reasons differ', () => {
    expect(groupAccepted([accepted('eks', 'a', 'm', 'one'), accepted('eks', 'b', 'm', 'two')])).toHaveLength(2);
  });
});

describe('describeScenarios', () => {
  it('names one scenario, says every scenario when all ran, and lists a subset', () => {
    expect(describeScenarios(['converge'], 7)).toBe('converge');
    expect(describeScenarios(['a', 'b', 'c'], 3)).toBe('every scenario');
    expect(describeScenarios(['a', 'b'], 3)).toBe('2 scenarios: a, b');
  });
});
