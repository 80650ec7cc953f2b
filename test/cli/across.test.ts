/**
 * Comparison ACROSS providers, end to end: a fourth provider (gcp2, a copy of gke) joins the bundled
 * three, gets its own goldens, and each seeded change must surface as exactly the divergences and
 * contract findings it causes, named for gcp2, and nothing else. The built CLI, as a user runs it.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFourth, FOURTH, ids, SEEDS, type FourthProject, type JsonReport, type ReportFinding, type Seed } from '../helpers/fourth.js';

const SLOW = 180_000;
const projects: FourthProject[] = [];
afterAll(() => projects.forEach((project) => project.remove()));

async function project(seed?: Seed, scenarios?: string[], options: { gcp2LikeGke?: boolean } = {}): Promise<FourthProject> {
  const built = await buildFourth({ ...(seed ? { seed } : {}), ...(scenarios ? { scenarios } : {}), ...options });
  projects.push(built);
  return built;
}

/** A seeded project diffed over `scenarios`: the run fails, and only gcp2 is blamed. */
/** `splits`: the splits the seed makes where two providers agree against it (too few voters to blame it). */
async function seededDiff(seed: Seed, scenarios: string[], splits: string[] = []): Promise<JsonReport> {
  return diffOf(await project(seed, scenarios), scenarios, splits);
}

async function diffOf(built: FourthProject, scenarios: string[], splits: string[] = []): Promise<JsonReport> {
  const { exitCode, stderr, report } = await built.diff(scenarios);
  expect(stderr).toBe('');
  expect(exitCode).toBe(1);
  expect(report.providers).toEqual(['eks', FOURTH, 'gke', 'nebius']);
  expect(report.scenarios).toEqual([...scenarios].sort());
  // No golden, error or stale findings: gcp2's goldens were written from the seeded function. Style
  // findings only where a seed's code reads differently (they blame gcp2, below).
  expect(report.findings.filter((finding) => finding.type === 'split').map((finding) => finding.id).sort()).toEqual([...splits].sort());
  expect(report.findings.filter((finding) => finding.type !== 'divergence' && finding.type !== 'rule' && finding.type !== 'style' && finding.type !== 'split')).toEqual([]);
  // The bundled providers are untouched, so nothing may blame them.
  expect(report.findings.filter((finding) => finding.provider !== FOURTH && finding.type !== 'split')).toEqual([]);
  expectFacetsAgree(report);
  return report;
}

/**
 * The facet a finding is about, as its id encodes it (`div:<subject>:<facet>:<provider>`,
 * `rule:<rule-id>:<provider>:<subject>`). The ids asserted below therefore pin the facet;
 * where the JSON report also carries a `facet` field, it must agree.
 */
function facetOf(finding: ReportFinding): string | undefined {
  const parts = finding.id.split(':');
  if (finding.type === 'divergence' || finding.type === 'style') return parts.at(-2);
  if (finding.type === 'split') return parts.at(-1);
  if (finding.type === 'rule') return parts[1];
  return undefined;
}

function expectFacetsAgree(report: JsonReport): void {
  for (const finding of [...report.findings, ...report.accepted]) {
    if (finding.facet !== undefined) expect(finding.facet, finding.id).toBe(facetOf(finding));
  }
}

const find = (report: JsonReport, id: string): ReportFinding => {
  const finding = report.findings.find((f) => f.id === id);
  if (!finding) throw new Error(`no finding ${id}; findings: ${ids(report.findings).join(', ') || '(none)'}`);
  return finding;
};

describe('a fourth provider that is a plain copy of gke', () => {
  let plain: FourthProject;
  beforeAll(async () => {
    plain = await project();
  }, SLOW);

  it('produces no findings at all: every scenario, every provider, exit 0', async () => {
    const { exitCode, stderr, report } = await plain.diff();
    expect(stderr).toBe('');
    expect(report.findings).toEqual([]);
    expect(report.summary).toMatchObject({ findings: 0, contract: 0, behavioral: 0, stylistic: 0, clean: true });
    expect(exitCode).toBe(0);
    expect(report.providers).toEqual(['eks', FOURTH, 'gke', 'nebius']);
    for (const row of Object.values(report.cells)) expect(row[FOURTH]).toBe('clean');
    // Nothing blames gcp2. GKE's accepted identity entry is two against two with gcp2 beside it: a
    // split, accepted with GKE's reason; every other accepted finding blames a bundled provider.
    expect(report.accepted.filter((finding) => finding.provider === FOURTH)).toEqual([]);
    const split = report.accepted.find((finding) => finding.id === 'split:status:identity-entry');
    expect(split?.accepted?.reason).toMatch(/^GKE's identity is its own service-account key/);
    // The intent split (what each cloud's pool API lets the intent change) is accepted for everyone;
    // the style outlier the gke copy's second vote makes is accepted for the peer it blames. (EKS's
    // VPC range and GKE's subnet range hold one value, but go to different fields: two constants.)
    expect(report.accepted.filter((finding) => finding.type !== 'divergence').map((finding) => finding.id)).toEqual([
      'split:node-pool:intent',
      'split:status:identity-entry',
      'style:_identity_secret:helper-presence:nebius',
    ]);
    expectFacetsAgree(report);
  }, SLOW);

  it('under CI an accepted entry that matches nothing fails the run as accepted-stale; without CI it does not', async () => {
    appendFileSync(plain.acceptedFile, `  - id: div:node-pool:presence:${FOURTH}\n    reason: accepts a difference that does not exist\n`);
    const entries = (parse(readFileSync(plain.acceptedFile, 'utf8')) as { accepted: unknown[] }).accepted.length;

    const ci = await plain.diff([], { CI: 'true' });
    expect(ci.stderr).toBe('');
    expect(ci.exitCode).toBe(1);
    expect(ci.report.findings).toHaveLength(1);
    expect(ci.report.findings[0]).toMatchObject({
      id: `accepted-stale:${entries}`,
      type: 'accepted-stale',
      subject: 'accepted',
      message: expect.stringContaining(`entry ${entries} of goldens/accepted.yaml (div:node-pool:presence:${FOURTH}) matches no finding`),
    });
    expect(ci.report.findings[0]!.accepted).toBeUndefined();

    const local = await plain.diff();
    expect(local.stderr).toBe('');
    expect(local.report.findings).toEqual([]);
    expect(local.exitCode).toBe(0);
    expect(local.report.accepted.filter((finding) => finding.type === 'accepted-stale').map((finding) => finding.id)).toEqual([`accepted-stale:${entries}`]);
    // What to do with the entry is said in every format, not only in JSON's hint.
    const { hint } = local.report.accepted.find((finding) => finding.type === 'accepted-stale')!;
    expect(hint).toMatch(/remove it$/);
    const text = await plain.drift(['diff']);
    expect(text.stdout).toContain(`entry ${entries} of goldens/accepted.yaml (div:node-pool:presence:${FOURTH}) matches no finding any more  [accepted-stale:${entries}]\n      → ${hint}`);
    const markdown = await plain.drift(['diff', '--format', 'markdown']);
    expect(markdown.stdout).toContain(`accepted: stale entries fail only under CI; ${hint.slice(0, 60)}`);
  }, SLOW);
});

it(
  "without the GKE acceptance extended to it, the GKE copy turns GKE's accepted identity entry into a split (2-2), blaming nobody",
  async () => {
    const built = await project(undefined, ['credentials-missing'], { gcp2LikeGke: false });
    const { exitCode, report } = await built.diff(['credentials-missing']);
    expect(exitCode).toBe(1);
    expect(ids(report.findings)).toEqual(['split:status:identity-entry']);
    const [finding] = report.findings;
    expect(finding).toMatchObject({ type: 'split', class: 'behavioral', subject: 'status', facet: 'identity-entry' });
    expect(finding!.provider).toBeUndefined();
    expect(finding!.values).toEqual({ eks: false, [FOURTH]: true, gke: true, nebius: false });
    expect(finding!.groups).toEqual([
      { value: false, providers: ['eks', 'nebius'], where: [expect.stringMatching(/^eks: providers\/eks\/function\/composer\.py:\d+$/), expect.stringMatching(/^nebius: providers\/nebius\/function\/composer\.py:\d+$/)] },
      { value: true, providers: [FOURTH, 'gke'], where: expect.arrayContaining([expect.stringMatching(/^gke: providers\/gke\/function\/composer\.py:\d+$/)]) },
    ]);
    // Two against two: no way is smaller than the largest, so the split marks no provider's cell.
    expect(Object.values(report.cells['credentials-missing']!)).toEqual(['clean', 'clean', 'clean', 'clean']);
    expectFacetsAgree(report);
    // The GKE-only acceptance names gke's divergence, which no longer exists; it does not accept the split.
    expect(report.accepted.filter((f) => f.scenario === 'credentials-missing' && f.facet === 'identity-entry')).toEqual([]);
  },
  SLOW,
);

describe('node-pool keys renamed nodepool-<pool> → node-pool-<pool> (user pools only)', () => {
  const scenarios = ['converge', 'two-pools'];
  let built: FourthProject;
  let first: JsonReport | undefined;
  beforeAll(async () => {
    built = await project(SEEDS.nodePoolKeys, scenarios);
  }, SLOW);

  it('is one stylistic key-pattern divergence of node-pool per scenario, and nothing else', async () => {
    const { exitCode, stderr, report } = await built.diff(scenarios);
    first = report;
    expect(stderr).toBe('');
    expect(exitCode).toBe(1);
    expect(ids(report.findings)).toEqual([`div:node-pool:key-pattern:${FOURTH}`]);
    for (const finding of report.findings) {
      expect(finding).toMatchObject({ type: 'divergence', class: 'stylistic', provider: FOURTH, subject: 'node-pool' });
      expect(facetOf(finding)).toBe('key-pattern');
      expect(finding.values).toEqual({ eks: ['nodepool-{pool}'], [FOURTH]: ['node-pool-{pool}'], gke: ['nodepool-{pool}'], nebius: ['nodepool-{pool}'] });
      expect(finding.consensus).toEqual(['nodepool-{pool}']);
    }
    expect(report.summary).toMatchObject({ findings: 1, contract: 0, behavioral: 0, stylistic: 1, clean: false });
    expect(report.findings[0]!.scenarios).toEqual([...scenarios].sort());
    expectFacetsAgree(report);
  }, SLOW);

  // BUG (src/report/json.ts FINDING_KEYS, schemas/report.schema.json): the JSON report drops each
  // finding's `facet`, the very field goldens/accepted.yaml matches on.
  it('the JSON report carries each finding’s facet', () => {
    expect(first?.findings.map((finding) => finding.facet)).toEqual(['key-pattern']);
  });

  it('drift accept <div id> moves that one finding under accepted; the run no longer fails for it', async () => {
    const id = `div:node-pool:key-pattern:${FOURTH}`;
    const accept = await built.drift(['accept', id, '--reason', 'gcp2 spells node-pool keys with a hyphen']);
    expect(accept.stderr).toBe('');
    expect(accept.exitCode).toBe(0);
    expect(accept.stdout).toContain(`accepted ${id}`);
    const entries = (parse(readFileSync(built.acceptedFile, 'utf8')) as { accepted: Array<Record<string, unknown>> }).accepted;
    expect(entries.at(-1)).toEqual({ id, reason: 'gcp2 spells node-pool keys with a hyphen' });

    const converge = await built.diff(['converge']);
    expect(converge.report.findings).toEqual([]);
    expect(converge.exitCode).toBe(0);
    expect(converge.report.accepted.find((finding) => finding.id === id)?.accepted).toEqual({ reason: 'gcp2 spells node-pool keys with a hyphen' });

    // The id names no scenario: accepting it accepts the one cause wherever it shows (two-pools too).
    const both = await built.diff(scenarios);
    expect(ids(both.report.findings)).toEqual([]);
    expect(both.exitCode).toBe(0);
  }, SLOW);
});

it(
  'no Helm ProviderConfig: behavioral presence divergence and contract provider-configs-read-kubeconfig',
  async () => {
    const report = await seededDiff(SEEDS.noHelmProviderConfig, ['converge']);
    expect(ids(report.findings)).toEqual([
      `div:kubeconfig:readers:${FOURTH}`,
      `div:provider-config-helm:presence:${FOURTH}`,
      `rule:provider-configs-read-kubeconfig:${FOURTH}:provider-config-helm`,
    ]);
    const presence = find(report, `div:provider-config-helm:presence:${FOURTH}`);
    expect(presence).toMatchObject({ class: 'behavioral', subject: 'provider-config-helm', consensus: 'composed' });
    expect(presence.values).toEqual({ eks: 'composed', [FOURTH]: 'absent', gke: 'composed', nebius: 'composed' });
    expect(find(report, `rule:provider-configs-read-kubeconfig:${FOURTH}:provider-config-helm`)).toMatchObject({
      type: 'rule',
      class: 'contract',
      subject: 'provider-config-helm',
    });
    // The same absence, seen from the kubeconfig: one reader fewer.
    expect(find(report, `div:kubeconfig:readers:${FOURTH}`).values![FOURTH]).toEqual(['provider-config-kubernetes']);
  },
  SLOW,
);

it(
  'the service account never marked ready: contract readiness-coverage naming it (and the XR never Ready)',
  async () => {
    const report = await seededDiff(SEEDS.serviceAccountNeverReady, ['converge', 'never-ready']);
    expect(ids(report.findings)).toEqual([
      `div:converged:converged:${FOURTH}`,
      `rule:readiness-coverage:${FOURTH}:service-account`,
      `rule:xr-converges:${FOURTH}:converged`,
      // The seed is a special case inside the readiness loop, and the code reads so.
      `style:readiness:readiness-shape:${FOURTH}`,
    ]);
    expect(find(report, `rule:readiness-coverage:${FOURTH}:service-account`)).toMatchObject({
      class: 'contract',
      subject: 'service-account',
      message: expect.stringContaining('service-account is never marked READY_TRUE'),
    });
    // service-account is a cloud-only role: it is never compared across providers by name.
    expect(report.findings.filter((finding) => finding.type === 'divergence' && finding.subject === 'service-account')).toEqual([]);
    // In never-ready nothing is expected to be marked, so the missing mark is no finding there.
    expect(report.findings.filter((finding) => finding.scenario === 'never-ready')).toEqual([]);
  },
  SLOW,
);

it(
  'a StorageClass Object with management policies ["*"]: contract in-cluster-no-delete',
  async () => {
    const report = await seededDiff(SEEDS.storageClassDeletes, ['converge']);
    expect(ids(report.findings)).toEqual([`div:cache-storage-class:management-policies:${FOURTH}`, `rule:in-cluster-no-delete:${FOURTH}:storage-class-rwx`]);
    expect(find(report, `rule:in-cluster-no-delete:${FOURTH}:storage-class-rwx`)).toMatchObject({ class: 'contract', subject: 'storage-class-rwx' });
    const policies = find(report, `div:cache-storage-class:management-policies:${FOURTH}`);
    expect(policies.class).toBe('behavioral');
    // One entry per distinct policy list among the role's resources.
    expect(policies.values![FOURTH]).toEqual([['*']]);
    expect(policies.consensus).toEqual([['Observe', 'Create', 'Update', 'LateInitialize']]);
  },
  SLOW,
);

describe('the network desired only while the required ProviderConfig is present', () => {
  const scenarios = ['credentials-lost'];
  let report: JsonReport;
  let built: FourthProject;
  beforeAll(async () => {
    built = await project(SEEDS.networkNeedsCredentials, scenarios);
  }, SLOW);

  it('is contract credentials-loss-drops-nothing in credentials-lost and a behavioral remove-credentials outcome', async () => {
    report = await diffOf(built, scenarios);
    expect(ids(report.findings)).toEqual([
      `div:then.0-remove-credentials:outcome:${FOURTH}`,
      `rule:credentials-loss-drops-nothing:${FOURTH}:network`,
    ]);
    expect(find(report, `rule:credentials-loss-drops-nothing:${FOURTH}:network`)).toMatchObject({
      class: 'contract',
      scenarios: ['credentials-lost'],
      subject: 'network',
    });
    const outcome = find(report, `div:then.0-remove-credentials:outcome:${FOURTH}`);
    expect(outcome).toMatchObject({ type: 'divergence', class: 'behavioral', subject: 'then[0] remove-credentials' });
    expect(outcome.values![FOURTH]).toMatchObject({ dropped: ['network'], unmarked: ['network'] });
    expect(outcome.consensus).toMatchObject({ dropped: [], unmarked: [] });
    // eks's outcome is the same; only its events differ (no "Waiting for" event), a facet of their
    // own that goldens/accepted.yaml accepts, so eks's wording cannot turn gcp2's drop into a split.
    expect(outcome.values!.eks).toEqual(outcome.consensus);
    expect(ids(report.accepted)).toContain('div:then.0-remove-credentials:outcome-events:eks');
  }, SLOW);

  // An outcome's subject has a space and a bracket ("then[0] remove-credentials"); its id is one shell
  // word all the same (src/compare/findingId.ts), so the id drift diff prints is accepted as printed.
  it('drift accept takes the outcome divergence id drift diff printed', async () => {
    const id = `div:then.0-remove-credentials:outcome:${FOURTH}`;
    const accept = await built.drift(['accept', id, '--reason', 'gcp2 may drop the network']);
    expect(accept.stderr).toBe('');
    expect(accept.exitCode).toBe(0);
    const after = await built.diff(scenarios);
    expect(ids(after.report.accepted)).toContain(id);
  }, SLOW);
});

it(
  "user node pools gated on the cluster's Ready condition: behavioral gated-on divergence of node-pool in converge",
  async () => {
    // two-pools is not ablated: there pools still appear the step the cluster is Ready, and gates are not compared.
    const report = await seededDiff(SEEDS.poolsGatedOnClusterReady, ['converge', 'two-pools']);
    expect(ids(report.findings)).toEqual([`div:node-pool:gated-on:${FOURTH}`]);
    const [finding] = report.findings;
    expect(finding).toMatchObject({ class: 'behavioral', scenarios: ['converge'], subject: 'node-pool' });
    // Without credentials the cluster is never Ready, so pools that wait for Ready also wait for the credentials.
    expect(finding!.values).toEqual({ eks: ['cluster.exists'], [FOURTH]: ['cluster.ready', 'credentials'], gke: ['cluster.exists'], nebius: ['cluster.exists'] });
    expect(finding!.consensus).toEqual(['cluster.exists']);
  },
  SLOW,
);

it(
  'a requirement without the namespace for a namespaced ProviderConfig: contract namespaced-requirement in custom-credentials',
  async () => {
    const report = await seededDiff(SEEDS.requirementWithoutNamespace, ['custom-credentials'], ['split:requirements:requirements']);
    expect(ids(report.findings)).toEqual([
      `div:events:events:${FOURTH}`,
      `rule:namespaced-requirement:${FOURTH}:requirements.gcp-provider-config`,
      // Only gke and nebius require a ProviderConfig here besides: two of three is a split, not a blame.
      'split:requirements:requirements',
    ]);
    expect(find(report, `rule:namespaced-requirement:${FOURTH}:requirements.gcp-provider-config`)).toMatchObject({
      class: 'contract',
      subject: 'requirements.gcp-provider-config',
    });
    // What the missing namespace does: the requirement is never answered, and gcp2 keeps waiting.
    expect(find(report, 'split:requirements:requirements').values![FOURTH]).toEqual([
      { kind: 'ProviderConfig', select: { name: 'team-a' }, satisfied: false },
    ]);
    expect(find(report, `div:events:events:${FOURTH}`).values![FOURTH]).toEqual(['Normal: Waiting for {cloud} ProviderConfig team-a']);
  },
  SLOW,
);

describe('the perturbation scenarios catch what only they show', () => {
  const scenarios = ['cluster-lost', 'credentials-broken'];

  it('pools not kept when the cluster leaves observed state, and a consumer dropped when the credentials become unusable', async () => {
    const seed = { composer: [...SEEDS.poolsNotKeptOnClusterLoss.composer, ...SEEDS.bindingDroppedOnUnusableCredentials.composer] };
    const report = await seededDiff(seed, scenarios);
    expect(ids(report.findings)).toEqual([
      `div:then.0-break-credentials:outcome:${FOURTH}`,
      `div:then.0-delete-cluster:outcome:${FOURTH}`,
      `rule:credentials-loss-drops-nothing:${FOURTH}:iam-binding`,
      `rule:nothing-dropped:${FOURTH}:nodepool-gpu`,
      `rule:nothing-dropped:${FOURTH}:nodepool-system`,
    ]);
    const lost = find(report, `div:then.0-delete-cluster:outcome:${FOURTH}`);
    expect((lost.values as Record<string, { dropped: string[] }>)[FOURTH]!.dropped).toEqual(['node-pool', 'system-pool']);
    expect((lost.consensus as { dropped: string[] }).dropped).toEqual([]);
    const broken = find(report, `div:then.0-break-credentials:outcome:${FOURTH}`);
    expect((broken.values as Record<string, { dropped: string[] }>)[FOURTH]!.dropped).toEqual(['cloud-resource']);
  }, SLOW);
});

it(
  'a core ConfigMap composed directly and marked ready on compose is neither cloud nor in-cluster: no rule fires, nothing diverges',
  async () => {
    const scenarios = ['converge', 'never-ready'];
    const built = await project(SEEDS.coreConfigMap, scenarios);
    const { exitCode, stderr, report } = await built.diff(scenarios);
    expect(stderr).toBe('');
    expect(report.findings).toEqual([]);
    expect(exitCode).toBe(0);
    // The seed really composed it, marked on compose, with no ProviderConfig.
    const golden = parse(readFileSync(`${built.dir}/goldens/${FOURTH}/never-ready.yaml`, 'utf8')) as { resources: Record<string, Record<string, unknown>> };
    expect(golden.resources.settings).toMatchObject({ role: 'settings', plane: 'neither', kind: 'ConfigMap', readyBy: 'composed' });
    expect(golden.resources.settings).not.toHaveProperty('providerConfigRef');
  },
  SLOW,
);

it(
  'a Helm Release through the per-cluster ProviderConfig with Delete: contract in-cluster-no-delete naming it, and nothing else',
  async () => {
    const report = await seededDiff(SEEDS.releaseDeletes, ['converge']);
    expect(ids(report.findings)).toEqual([`rule:in-cluster-no-delete:${FOURTH}:gpu-operator`]);
    expect(report.findings[0]!.message).toBe('in-cluster-no-delete: gpu-operator has management policies ["Observe","Create","Update","Delete"], which include Delete');
  },
  SLOW,
);
