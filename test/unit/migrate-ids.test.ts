/** drift migrate rewrites accepted ids of an older drift in place: comments and every other byte stay. */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { migrateAcceptedIds } from '../../src/pipeline/migrateIds.js';

const SCENARIOS = new Set(['converge', 'cluster-lost']);

const TEXT = `# accepted differences
accepted:
  # the eks subnets
  - id: div:converge:subnet:key-pattern:eks # two zones
    reason: EKS needs two subnets.
  - id: 'rule:nothing-dropped:vultr/cluster-lost:nodepool-gpu'
    reason: "Vultr drops it."
  - facet: writer
    providers: [eks]
    reason: cluster-auth writes it
  - id: split:node-pool:intent
    scenario: converge
    reason: current already
`;

describe('migrateAcceptedIds', () => {
  it('rewrites each legacy id with its scenario beside it, keeping comments and quoting', () => {
    const { text, rewrites } = migrateAcceptedIds(TEXT, SCENARIOS, 'goldens/accepted.yaml');
    expect(rewrites.map(({ entry, line, to, scenario }) => [entry, line, to, scenario])).toEqual([
      [1, 4, 'div:subnet:key-pattern:eks', 'converge'],
      [2, 6, 'rule:nothing-dropped:vultr:nodepool-gpu', 'cluster-lost'],
    ]);
    expect(text).toBe(TEXT.replace('div:converge:subnet:key-pattern:eks # two zones', 'div:subnet:key-pattern:eks # two zones\n    scenario: converge').replace("'rule:nothing-dropped:vultr/cluster-lost:nodepool-gpu'", "'rule:nothing-dropped:vultr:nodepool-gpu'\n    scenario: cluster-lost"));
    expect((parse(text) as { accepted: unknown[] }).accepted[0]).toEqual({ id: 'div:subnet:key-pattern:eks', scenario: 'converge', reason: 'EKS needs two subnets.' });
  });

  it('is idempotent: a second run changes nothing', () => {
    const once = migrateAcceptedIds(TEXT, SCENARIOS, 'goldens/accepted.yaml').text;
    expect(migrateAcceptedIds(once, SCENARIOS, 'goldens/accepted.yaml')).toEqual({ text: once, rewrites: [] });
  });

  it('refuses an id it cannot read, naming file, line and what to write', () => {
    const text = 'accepted:\n  - reason: fine\n    facet: writer\n  - id: rule:nothing-dropped\n    reason: short\n';
    expect(() => migrateAcceptedIds(text, SCENARIOS, 'goldens/accepted.yaml')).toThrow(/^goldens\/accepted\.yaml:4:9: cannot read the finding id "rule:nothing-dropped" \(entry 2\): write it as drift diff prints it now/);
  });

  it('refuses an entry whose scenario contradicts its id, and a flow entry it would have to restructure', () => {
    expect(() => migrateAcceptedIds('accepted:\n  - id: div:converge:a:b:c\n    scenario: cluster-lost\n    reason: xyz\n', SCENARIOS, 'f.yaml')).toThrow(/^f\.yaml:2:9: entry 1 accepts div:converge:a:b:c, of scenario converge, but names scenario cluster-lost/);
    expect(() => migrateAcceptedIds('accepted:\n  - {id: "div:converge:a:b:c", reason: xyz}\n', SCENARIOS, 'f.yaml')).toThrow(/^f\.yaml:2:10: entry 1 is a flow map/);
  });
});
