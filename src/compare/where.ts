/**
 * Findings say where: the file:line, relative to the project root, of the code in the provider's source
 * that composes what a divergence, rule, pinned-way or locked finding is about, read from the outline's
 * places (`compose:<pattern>`, `gate:<pattern>`, `idiom:results:…`). A divergence also names one place
 * in a provider that follows the convention, as style findings do. Only where the source was read: a
 * provider standing in through its goldens has no places, and then nothing is said. Pure.
 */
import { composerOf } from '../outline/outline.js';
import type { Outline, Places } from '../outline/types.js';
import { stableStringify } from '../util/objects.js';
import type { Finding } from './findings.js';

/** A provider's outlined source as the run read it. */
export interface SourcePlaces {
  /** The source root as reports show it (`providers/gke`), relative to the project root. */
  root: string;
  outline: Outline;
  places: Places;
  /** Each composed key and its role, over every scenario. */
  keys: ReadonlyMap<string, string>;
}

/** Findings about a subject a provider composes. */
const PLACED: ReadonlySet<Finding['type']> = new Set(['divergence', 'rule', 'locked']);

/** Where `source` composes `subject` (a role, or a composed key as rules name them), for `facet`. */
export function placeOfSubject(source: SourcePlaces, subject: string, facet: string | undefined): string | undefined {
  const at = (key: string) => {
    const place = source.places.get(key);
    return place ? `${source.root}/${place}` : undefined;
  };
  // Events are emitted where results are added, whatever the subject; a fatal result ends the run
  // instead (the events compared are the run's normal and warning results), so it comes last.
  if (facet === 'events' || facet === 'outcome-events') {
    const emits = [...source.places.keys()].filter((key) => key.startsWith('idiom:results:')).sort((a, b) => Number(a.includes('fatal')) - Number(b.includes('fatal')) || (a < b ? -1 : 1));
    return emits[0] ? at(emits[0]) : undefined;
  }
  // A rule names a composed key (`nodepool-gpu`, `requirements.x`: the part before a dot); a divergence, a role.
  const key = subject.split('.')[0]!;
  // What the function requires is asked through the SDK's requirement call; the XR's status is
  // written by the function that writes it (its name says so: the outline knows no other sign).
  if (key === 'requirements') return firstPlace(source, (name) => name.startsWith('sdk:') && name.includes('require_resources'), at);
  if (key === 'status') return firstPlace(source, (name) => name.startsWith('def:') && name.endsWith('status') && !source.places.get(name)!.startsWith('tests/'), at);
  for (const found of composersOf(source, key, subject)) {
    if (facet === 'gated-on') {
      const gate = at(`gate:${found.pattern}`);
      if (gate) return gate;
    }
    const compose = at(`compose:${found.pattern}`);
    if (compose) return compose;
  }
  return undefined;
}

/** The functions of `source` that compose `key` (a composed key) or the keys of role `subject`. */
function composersOf(source: SourcePlaces, key: string, subject: string): Array<{ pattern: string; function: string }> {
  const keys = source.keys.has(key) ? [key] : [...source.keys].filter(([, role]) => role === subject || role === facetRole(subject)).map(([name]) => name).sort();
  return keys.flatMap((name) => composerOf(source.outline, name) ?? []);
}

/**
 * Where a provider whose own code shows no composer of the subject (it composes none, or under a key the
 * outline does not see) would: its def of the function that composes the subject in a provider holding
 * the convention, as the bundled providers name the same job alike. Absent when no such def exists.
 */
function counterpartOf(source: SourcePlaces, subject: string, followers: readonly SourcePlaces[]): string | undefined {
  const key = subject.split('.')[0]!;
  for (const follower of followers) {
    for (const found of composersOf(follower, key, subject)) {
      const place = source.places.get(`def:${found.function}`);
      if (place) return `${source.root}/${place}`;
    }
  }
  return undefined;
}

/** The first place (by file:line) whose outline name `wanted` accepts. */
function firstPlace(source: SourcePlaces, wanted: (name: string) => boolean, at: (name: string) => string | undefined): string | undefined {
  const names = [...source.places.keys()].filter(wanted).sort((a, b) => comparePlaces(source.places.get(a)!, source.places.get(b)!));
  return names[0] ? at(names[0]) : undefined;
}

/** A place's file and line: `file:line`, the file possibly holding colons of its own. */
export function splitPlace(place: string): [string, number] {
  const at = place.lastIndexOf(':');
  return [place.slice(0, at), Number(place.slice(at + 1))];
}

/** `file:line` in file order, then line order. */
function comparePlaces(a: string, b: string): number {
  const [fileA, lineA] = splitPlace(a);
  const [fileB, lineB] = splitPlace(b);
  return fileA < fileB ? -1 : fileA > fileB ? 1 : lineA - lineB;
}

/** The kubeconfig facets are about the resource that writes it: the cluster. */
const facetRole = (subject: string) => (subject === 'kubeconfig' ? 'cluster' : subject);

/**
 * `where` for each finding about one provider's subject whose source was read: its own place, then, for
 * a divergence, `<provider>: file:line` of one provider that holds the convention. Findings that already
 * say where (style) are left as they are.
 */
export function withWhere(findings: readonly Finding[], sources: ReadonlyMap<string, SourcePlaces>): Finding[] {
  return findings.map((finding) => {
    if (finding.where || !PLACED.has(finding.type) || !finding.provider) return finding;
    const source = sources.get(finding.provider);
    if (!source) return finding;
    const { subject, facet } = causeOf(finding);
    // A rule's subject has no convention: any other provider that composes it shows the job.
    const holders = finding.type === 'rule' ? [...sources].filter(([name]) => name !== finding.provider).sort(([a], [b]) => (a < b ? -1 : 1)) : holdersOf(finding, sources);
    const own = placeOfSubject(source, subject, facet) ?? counterpartOf(source, subject, holders.map(([, held]) => held));
    if (!own) return finding;
    return { ...finding, where: [own, ...followerOf(finding, sources)] };
  });
}

/**
 * What a finding's cause is about in the code. A perturbation's outcome (`then[0] remove-credentials`)
 * differs by the roles it drops or leaves unmarked: the first role one side has and the other not, whose
 * gate decides it (else its composer).
 */
export function causeOf(finding: Finding): { subject: string; facet: string | undefined } {
  if (finding.facet !== 'outcome' || !finding.provider || !finding.values) return { subject: finding.subject, facet: finding.facet };
  const roles = (value: unknown) => {
    const outcome = (value ?? {}) as { dropped?: unknown; unmarked?: unknown };
    return new Set([outcome.dropped, outcome.unmarked].flatMap((list) => (Array.isArray(list) ? list.map(String) : [])));
  };
  const own = roles(finding.values[finding.provider]);
  const convention = roles(finding.consensus);
  const differing = [...new Set([...own, ...convention])].filter((role) => own.has(role) !== convention.has(role)).sort();
  return differing[0] ? { subject: differing[0], facet: 'gated-on' } : { subject: finding.subject, facet: finding.facet };
}

/** The providers whose source was read that hold a divergence's convention, by name. */
function holdersOf(finding: Finding, sources: ReadonlyMap<string, SourcePlaces>): Array<[string, SourcePlaces]> {
  // A provider that left the way an accepted split pins for it: the others of that way hold it.
  const pinnedWay = finding.pinned?.ways.find((way) => way.providers.includes(finding.provider ?? ''));
  if (pinnedWay) return pinnedWay.providers.filter((provider) => provider !== finding.provider && sources.has(provider)).sort().map((provider) => [provider, sources.get(provider)!]);
  if (finding.type !== 'divergence' || finding.consensus === undefined || !finding.values) return [];
  const convention = stableStringify(finding.consensus);
  return Object.entries(finding.values)
    .filter(([provider, value]) => provider !== finding.provider && stableStringify(value) === convention && sources.has(provider))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([provider]) => [provider, sources.get(provider)!]);
}

/** One provider that holds the convention a divergence differs from, and where it composes the subject. */
function followerOf(finding: Finding, sources: ReadonlyMap<string, SourcePlaces>): string[] {
  const { subject, facet } = causeOf(finding);
  for (const [provider, source] of holdersOf(finding, sources)) {
    const place = placeOfSubject(source, subject, facet);
    if (place) return [`${provider}: ${place}`];
  }
  return [];
}
