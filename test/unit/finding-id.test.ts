/**
 * Every finding id is one shell word (issue 37): idToken spells each part, findingId joins them, and an
 * id an older drift printed respells to the id its parts spell now.
 */
import { describe, expect, it } from 'vitest';
import { applyAccepted, legacyEntries, matches, type AcceptedEntry } from '../../src/compare/acceptance.js';
import type { Finding } from '../../src/compare/findings.js';
import { migrateAcceptedIds } from '../../src/pipeline/migrateIds.js';
import { divergenceId, factsOfId, findingId, ID_CHARACTERS, idToken, legacyIdOf, respelledId, ruleId, splitId } from '../../src/compare/findingId.js';

describe('idToken', () => {
  it('leaves a word as it is', () => {
    for (const word of ['node-pool', 'status.cache', 'Composer.compose_storage_class', 'requirements.gcp-provider-config', 'function/composer.py', '{xr}-kubeconfig', 'a--b']) expect(idToken(word)).toBe(word);
  });

  it('spells a subject with spaces, brackets, commas and quotes readably', () => {
    expect(idToken('then[0] delete cluster')).toBe('then.0-delete-cluster');
    expect(idToken('then[0] remove-credentials')).toBe('then.0-remove-credentials');
    expect(idToken('a, b,c')).toBe('a+b+c');
    expect(idToken('outcome (events)')).toBe('outcome-events');
    expect(idToken(`"quoted" 'name'`)).toBe('quoted-name');
    expect(idToken('x - y')).toBe('x-y');
    expect(idToken('golden/*')).toBe('golden/');
    expect(idToken('dict[str, Any]')).toBe('dict{str+Any}');
    expect(idToken('  padded  ')).toBe('padded');
  });

  it('keeps a colon, with nothing dangling beside it', () => {
    expect(idToken('then[0] delete: cluster')).toBe('then.0-delete:cluster');
  });

  it('spells every text in the id characters, and a spelled one again as itself', () => {
    const texts = ['then[0] delete cluster', 'a; b | c', 'ü ñ', 'tab\there', 'new\nline', '#1 (x)', '$HOME & ~', 'semi;colon', '<a>', '!', ''];
    for (const text of texts) {
      const token = idToken(text);
      if (token !== '') expect(token).toMatch(ID_CHARACTERS);
      expect(idToken(token)).toBe(token);
    }
  });

  it('tells apart the subjects a report holds side by side', () => {
    const subjects = ['then[0] delete cluster', 'then[0] remove-credentials', 'then[0] break-credentials', 'then[1] delete cluster', 'cluster', 'node-pool'];
    expect(new Set(subjects.map(idToken)).size).toBe(subjects.length);
  });
});

describe('findingId and the id builders', () => {
  it('spell every part', () => {
    expect(findingId('style', 'then[0] delete cluster', 'composer', 'aks')).toBe('style:then.0-delete-cluster:composer:aks');
    expect(divergenceId('then[0] delete cluster', 'outcome', 'vultr')).toBe('div:then.0-delete-cluster:outcome:vultr');
    expect(splitId('then[0] remove-credentials', 'outcome-events')).toBe('split:then.0-remove-credentials:outcome-events');
    expect(ruleId('nothing-dropped', 'vultr', 'nodepool-gpu')).toBe('rule:nothing-dropped:vultr:nodepool-gpu');
  });

  it('read back the spelled subject', () => {
    expect(factsOfId(divergenceId('then[0] delete: cluster', 'outcome', 'eks'))).toEqual({ id: 'div:then.0-delete:cluster:outcome:eks', type: 'divergence', subject: 'then.0-delete:cluster', facet: 'outcome', provider: 'eks' });
  });
});

describe('respelledId: ids of an older drift', () => {
  it('gives the id the parts spell now', () => {
    expect(respelledId('div:then[0] delete cluster:outcome:vultr')).toBe(divergenceId('then[0] delete cluster', 'outcome', 'vultr'));
    expect(respelledId('div:then[0] delete: cluster:outcome:eks')).toBe(divergenceId('then[0] delete: cluster', 'outcome', 'eks'));
    expect(respelledId('split:then[0] remove-credentials:outcome-events')).toBe(splitId('then[0] remove-credentials', 'outcome-events'));
    expect(respelledId('style:a, b:helper-name:gke')).toBe(findingId('style', 'a, b', 'helper-name', 'gke'));
  });

  it('leaves a current id as it is', () => {
    for (const id of ['div:node-pool:labels:aks', 'rule:swallowed-fact:aks:Composer.compose_storage_class', 'cause:gke:function/composer.py:12']) expect(respelledId(id)).toBe(id);
  });

  it('respells the id an id naming the scenario becomes', () => {
    expect(legacyIdOf('div:credentials-broken:then[0] break-credentials:outcome:aks', new Set(['credentials-broken']))).toEqual({ id: 'div:then.0-break-credentials:outcome:aks', scenario: 'credentials-broken' });
  });
});

describe('accepted entries written with the old spelling', () => {
  const finding: Finding = {
    id: divergenceId('then[0] delete cluster', 'outcome', 'vultr'),
    type: 'divergence',
    class: 'behavioral',
    provider: 'vultr',
    scenario: 'cluster-lost',
    subject: 'then[0] delete cluster',
    facet: 'outcome',
    message: 'vultr keeps its pools',
    hint: 'h',
  };
  const old: AcceptedEntry = { id: 'div:then[0] delete cluster:outcome:vultr', reason: 'Vultr deletes them itself' };
  const file = 'goldens/accepted.yaml';

  it('still accept the finding, and are reported until drift migrate respells them', () => {
    expect(matches(old, finding)).toBe(true);
    expect(applyAccepted([finding], [old], { strict: true, file })[0]!.accepted?.reason).toBe('Vultr deletes them itself');
    const [legacy, ...rest] = legacyEntries([old], file);
    expect(rest).toEqual([]);
    expect(legacy).toMatchObject({ id: 'accepted-legacy:1', type: 'accepted-stale' });
    expect(legacy!.message).toContain('div:then.0-delete-cluster:outcome:vultr');
    expect(legacy!.hint).toContain('drift migrate');
  });

  it('match nothing else: another subject, facet or provider is another id', () => {
    expect(matches(old, { ...finding, id: divergenceId('then[0] delete cluster', 'outcome', 'gke'), provider: 'gke' })).toBe(false);
    expect(matches(old, { ...finding, id: divergenceId('then[1] delete cluster', 'outcome', 'vultr'), subject: 'then[1] delete cluster' })).toBe(false);
  });

  it('are not reported once current', () => {
    expect(legacyEntries([{ ...old, id: finding.id }], file)).toEqual([]);
  });

  it('a facet entry matches the subject an id spells, so drift accept can tell one already covers it', () => {
    const facts = factsOfId(finding.id) as Finding;
    expect(matches({ facet: 'outcome', subject: 'then[0] delete cluster', reason: 'r' }, facts)).toBe(true);
    expect(matches({ facet: 'outcome', subject: 'then[1] delete cluster', reason: 'r' }, facts)).toBe(false);
  });

  it('drift migrate respells the id in place, scenario and comments kept', () => {
    const text = `accepted:\n  - id: "div:then[0] delete cluster:outcome:vultr" # by hand\n    scenario: cluster-lost\n    reason: kept\n  - id: div:node-pool:labels:aks\n    reason: current\n`;
    const { text: out, rewrites } = migrateAcceptedIds(text, new Set(['cluster-lost']), file);
    expect(rewrites).toEqual([{ entry: 1, line: 2, from: 'div:then[0] delete cluster:outcome:vultr', to: 'div:then.0-delete-cluster:outcome:vultr' }]);
    expect(out).toBe(text.replace('"div:then[0] delete cluster:outcome:vultr"', '"div:then.0-delete-cluster:outcome:vultr"'));
    expect(migrateAcceptedIds(out, new Set(['cluster-lost']), file)).toEqual({ text: out, rewrites: [] });
  });

  it('drift migrate respells the id an id naming its scenario becomes', () => {
    const text = `accepted:\n  - id: div:cluster-lost:then[0] delete cluster:outcome:vultr\n    reason: kept\n`;
    const { text: out } = migrateAcceptedIds(text, new Set(['cluster-lost']), file);
    expect(out).toBe('accepted:\n  - id: div:then.0-delete-cluster:outcome:vultr\n    scenario: cluster-lost\n    reason: kept\n');
  });
});
