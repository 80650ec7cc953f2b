/**
 * Findings say where: the file:line, relative to the project root, of the code in the provider's source
 * that composes what a divergence, rule, pinned-way or locked finding is about, read from the outline's
 * places (`compose:<pattern>`, `gate:<pattern>`, `idiom:results:…`). A divergence also names one place
 * in a provider that follows the convention, as style findings do. Only where the source was read: a
 * provider standing in through its goldens has no places, and then nothing is said. Pure.
 */
import { composerOf, keyMatches } from '../outline/outline.js';
import type { Outline, Places } from '../outline/types.js';
import { escapeRegExp, stableStringify } from '../util/objects.js';
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

/** What a finding says about the subject beyond its facet: the provider's value and the convention's. */
export interface Detail {
  own?: unknown;
  convention?: unknown;
}

/** Facets about the body a composer writes: where the body is made, not where it is handed over. */
const BODY_FACETS: ReadonlySet<string> = new Set(['intent', 'selects', 'provider-config-ref', 'management-policies', 'readiness-policy', 'manifest', 'api', 'selected-labels', 'behavior-annotations', 'cloud-credentials-ref', 'in-cluster-no-delete']);
/** Facets about the object's own envelope (its metadata): where the object itself is built. */
const ENVELOPE_FACETS: ReadonlySet<string> = new Set(['metadata-namespace', 'metadata-labels', 'metadata-annotations']);
/** Facets about readiness: where readiness is set. */
const READY_FACETS: ReadonlySet<string> = new Set(['ready', 'ready-by', 'no-early-ready', 'readiness-coverage']);
/** Facets whose values are what a resource waits for: the gate that decides. */
const GATE_FACETS: ReadonlySet<string> = new Set(['gated-on', 'appears', 'credentials-loss-drops-nothing', 'nothing-dropped']);

/** Where `source` composes `subject` (a role, or a composed key as rules name them), for `facet`. */
export function placeOfSubject(source: SourcePlaces, subject: string, facet: string | undefined, detail: Detail = {}): string | undefined {
  const at = (key: string | undefined) => {
    const place = key === undefined ? undefined : source.places.get(key);
    return place ? `${source.root}/${place}` : undefined;
  };
  // Events are emitted by the result call that says that message (a fatal one last: it ends the run).
  if (facet === 'events' || facet === 'outcome-events') return at(resultCallFor(source, messagesOf(detail)));
  // A region kept when the XR's changed is the literal that holds it; a spec answered without a Fatal
  // result, the result call (or, with none left, the handler that catches the spec's error).
  if (facet === 'region-from-intent' && typeof detail.own === 'string') {
    const place = literalPlace(source, detail.own, at);
    if (place) return place;
  }
  if (facet === 'invalid-spec-fatal') {
    const place = firstPlace(source, (name) => name.startsWith('result:fatal:'), at) ?? firstPlace(source, (name) => /^handler:(\w+\.)?RunFunction:/.test(name), at) ?? firstPlace(source, (name) => /^def:(\w+\.)?RunFunction$/.test(name), at);
    if (place) return place;
  }
  // A rule names a composed key (`nodepool-gpu`, `requirements.x`: the part before a dot); a divergence, a role.
  const key = subject.split('.')[0]!;
  // What the function requires is asked through the SDK's requirement call; the XR's status is
  // written where the desired composite is handed to a write (the function by what it writes).
  if (key === 'requirements') return firstPlace(source, (name) => name.startsWith('sdk:') && name.includes('require_resources'), at);
  if (key === 'status' || facet === 'kubeconfig-entry' || facet === 'identity-entry' || facet === 'identity-shape' || facet === 'fields' || facet === 'cache' || facet === 'status-appears') {
    return firstPlace(source, (name) => name.startsWith('status-write:'), at);
  }
  // The kubeconfig's readers are the roles that read it: the differing reader first.
  // A reader the provider does not compose is composed beside the readers it does (both ProviderConfigs in one def).
  if (facet === 'readers') {
    const first = differing(detail);
    const all = [...new Set([...first, ...[detail.own, detail.convention].flatMap((value) => (Array.isArray(value) ? value.map(String) : []))])];
    for (const role of [...first, ...all.filter((role) => !first.includes(role)).sort()]) {
      const place = placeOfSubject(source, role, 'presence');
      if (place) return place;
    }
  }
  if (facet !== undefined && READY_FACETS.has(facet)) {
    const place = readinessPlace(source, facet, detail, at);
    if (place) return place;
  }
  if (facet === 'labels') {
    const place = labelPlace(source, detail, at);
    if (place) return place;
  }
  for (const found of composersOf(source, key, subject)) {
    if (facet !== undefined && GATE_FACETS.has(facet)) {
      const gate = at(decidingGate(source, found.pattern, gatesOf(detail, facet))) ?? at(`gate:${found.pattern}`);
      if (gate) return gate;
    }
    if (facet !== undefined && ENVELOPE_FACETS.has(facet)) {
      const envelope = at(`envelope:${found.pattern}`) ?? at(`body:${found.pattern}`);
      if (envelope) return envelope;
    }
    if (facet !== undefined && (BODY_FACETS.has(facet) || facet === 'labels')) {
      const body = at(`body:${found.pattern}`);
      if (body) return body;
    }
    const compose = at(`compose:${found.pattern}`);
    if (compose) return compose;
  }
  return undefined;
}

/** The values one side holds and the other not (list facets), sorted. */
function differing(detail: Detail): string[] {
  const list = (value: unknown) => new Set(Array.isArray(value) ? value.filter((item) => item !== null).map(String) : []);
  const own = list(detail.own);
  const convention = list(detail.convention);
  return [...new Set([...own, ...convention])].filter((item) => own.has(item) !== convention.has(item)).sort();
}

/** A finding's messages (`Normal: Waiting for …`): the provider's own that the convention lacks first, then the convention's. */
function messagesOf(detail: Detail): string[] {
  const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
  const own = list(detail.own);
  const convention = list(detail.convention);
  return [...own.filter((message) => !convention.includes(message)), ...convention.filter((message) => !own.includes(message)), ...own];
}

/**
 * The place of the result call that emits one of `messages` (`Severity: text`, values templated as
 * `{cloud}`): the call of that severity whose message shares the most words with it. Without a
 * message to go by, the first normal or warning call (a fatal result ends the run instead).
 */
function resultCallFor(source: SourcePlaces, messages: readonly string[]): string | undefined {
  const calls = [...source.places.keys()]
    .filter((name) => name.startsWith('result:'))
    .map((name) => {
      const [, severity, , ...text] = name.split(':');
      return { name, severity: severity!, text: text.join(':') };
    })
    .sort((a, b) => comparePlaces(source.places.get(a.name)!, source.places.get(b.name)!));
  const words = (text: string) => new Set(text.split(/\s+/).filter((word) => word && !word.includes('{')));
  for (const message of messages) {
    const split = message.indexOf(': ');
    const severity = (split > 0 ? message.slice(0, split) : '').toLowerCase();
    const said = words(split > 0 ? message.slice(split + 2) : message);
    let best: { name: string; score: number } | undefined;
    for (const call of calls) {
      const score = [...words(call.text)].filter((word) => said.has(word)).length + (call.severity === severity ? 0.5 : 0);
      if (score >= 1 && (!best || score > best.score)) best = { name: call.name, score };
    }
    if (best) return best.name;
    const alike = calls.find((call) => call.severity === severity);
    if (alike) return alike.name;
  }
  const quiet = calls.find((call) => call.severity !== 'fatal') ?? calls[0];
  if (quiet) return quiet.name;
  return [...source.places.keys()].filter((name) => name.startsWith('idiom:results:')).sort((a, b) => Number(a.includes('fatal')) - Number(b.includes('fatal')) || (a < b ? -1 : 1))[0];
}

/**
 * Where readiness is set for a finding about it: a resource marked ready too early (on compose) is
 * marked so by what the readiness decision consults (a constant listing the keys ready on compose);
 * otherwise at the readiness mark itself.
 */
function readinessPlace(source: SourcePlaces, facet: string, detail: Detail, at: (key: string | undefined) => string | undefined): string | undefined {
  const early =
    facet === 'no-early-ready' ||
    (facet === 'ready-by' && differing(detail).includes('composed') && Array.isArray(detail.own) && detail.own.includes('composed')) ||
    (facet === 'ready' && typeof detail.own === 'number' && (typeof detail.convention !== 'number' || detail.own < detail.convention));
  if (early) {
    for (const form of source.outline.idioms?.readinessBy ?? []) {
      const constant = firstPlace(source, (name) => name.startsWith('const:') && name.endsWith(`:${form}`), at);
      if (constant) return constant;
    }
  }
  return firstPlace(source, (name) => name.startsWith('idiom:readinessMark:'), at);
}

/** Where a pool's labels are written: the code holding a contract label key the finding names (the differing one first). */
function labelPlace(source: SourcePlaces, detail: Detail, at: (key: string | undefined) => string | undefined): string | undefined {
  const all = [...new Set([...(Array.isArray(detail.own) ? detail.own : []), ...(Array.isArray(detail.convention) ? detail.convention : [])].map(String))].sort();
  const first = differing(detail);
  for (const label of [...first, ...all.filter((label) => !first.includes(label))]) {
    const literal = at(`literal:${label}`);
    if (literal) return literal;
    for (const [file, module] of Object.entries(source.outline.files ?? {})) {
      for (const [name, constant] of Object.entries(module.constants)) if (constant.value === label && at(`const:${file}:${name}`)) return at(`const:${file}:${name}`);
    }
  }
  return undefined;
}

/** Where the source writes `value` as a word of a string: a literal in a function, or a module constant holding it (the first by file:line). */
function literalPlace(source: SourcePlaces, value: string, at: (key: string | undefined) => string | undefined): string | undefined {
  const word = new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(value)}(?![0-9])`);
  const constants = new Set(Object.entries(source.outline.files ?? {}).flatMap(([file, module]) => Object.entries(module.constants).filter(([, constant]) => typeof constant.value === 'string' && word.test(constant.value)).map(([name]) => `const:${file}:${name}`)));
  return firstPlace(source, (name) => constants.has(name) || (name.startsWith('literal:') && !name.includes('@') && word.test(name.slice('literal:'.length))), at);
}

/** What the facts a finding is about wait for: the gates that differ, or the perturbation's subject. */
function gatesOf(detail: Detail, facet: string): string[] {
  if (facet === 'credentials-loss-drops-nothing') return ['credentials'];
  return differing(detail);
}

/**
 * Of the nested conditions a composed pattern waits on (outermost first), the one that decides a
 * finding: the outermost whose condition names a key of the role a differing gate is about
 * (`"cluster" in self.observed_resources` for `cluster.ready`); for the credentials, the outermost
 * naming no composed key. Else the outermost condition.
 */
function decidingGate(source: SourcePlaces, pattern: string, gates: readonly string[]): string | undefined {
  const steps = [...source.places.keys()]
    .filter((name) => name.startsWith(`gates:${pattern}#`))
    .map((name) => {
      const rest = name.slice(`gates:${pattern}#`.length);
      const colon = rest.indexOf(':');
      return { name, index: Number(rest.slice(0, colon)), keys: rest.slice(colon + 1).split(',').filter(Boolean) };
    })
    .sort((a, b) => a.index - b.index);
  if (!steps.length) return undefined;
  const composed = new Set(source.keys.keys());
  for (const gate of gates) {
    if (gate === 'credentials') {
      const step = steps.find((candidate) => !candidate.keys.some((key) => composed.has(key) || [...composed].some((name) => keyMatches(key, name))));
      if (step) return step.name;
      continue;
    }
    const subject = gate.split('.')[0]!;
    const keys = new Set([subject, ...[...source.keys].filter(([, role]) => role === subject).map(([name]) => name)]);
    const step = steps.find((candidate) => candidate.keys.some((key) => keys.has(key)));
    if (step) return step.name;
  }
  return steps[0]!.name;
}

/** The functions of `source` that compose `key` (a composed key) or the keys of role `subject`. */
function composersOf(source: SourcePlaces, key: string, subject: string): Array<{ pattern: string; function: string }> {
  const keys = source.keys.has(key) ? [key] : [...source.keys].filter(([, role]) => role === subject || role === facetRole(subject)).map(([name]) => name).sort();
  return keys.flatMap((name) => composerOf(source.outline, name) ?? []);
}

/**
 * Where a provider whose own code shows no composer of the subject (it composes none, or under a key the
 * outline does not see) would: found by what the composing function composes in a provider holding the
 * convention, never by its name. That function's other subjects are composed here too by some def of
 * this provider: that def. Else the def that runs the composers. Absent when neither is known.
 */
function counterpartOf(source: SourcePlaces, subject: string, followers: readonly SourcePlaces[]): string | undefined {
  const key = subject.split('.')[0]!;
  for (const follower of followers) {
    for (const found of composersOf(follower, key, subject)) {
      const functions = found.function.split(', ');
      // What else that function composes: its other patterns, and the other roles its own pattern stands for (the user pools beside the system pool).
      const siblings = Object.entries(follower.outline.composes).filter(([, names]) => names.split(', ').some((name) => functions.includes(name)));
      for (const [pattern] of siblings.sort(([a], [b]) => Number(b === found.pattern) - Number(a === found.pattern) || (a < b ? -1 : 1))) {
        const roles = [...follower.keys].filter(([name, role]) => role !== subject && (name === pattern || keyMatches(pattern, name))).map(([, role]) => role);
        for (const role of [...new Set(roles)].sort()) {
          for (const own of composersOf(source, role, role)) {
            const place = own.function.split(', ').map((name) => source.places.get(`def:${name}`)).find(Boolean);
            if (place) return `${source.root}/${place}`;
          }
        }
      }
    }
  }
  return entryOf(source);
}

/**
 * The def that runs the composers: the function of `source` whose calls reach the most functions that
 * compose something (`compose()`), for a finding about the whole answer (convergence, determinism).
 */
export function entryOf(source: SourcePlaces): string | undefined {
  const composers = new Set(Object.values(source.outline.composes).flatMap((names) => names.split(', ').map((name) => name.split('.').pop()!)));
  let best: { name: string; count: number } | undefined;
  for (const module of Object.values(source.outline.files ?? {})) {
    if (module.kind !== 'module') continue;
    const defs: Array<[string, { calls?: string[] }]> = [
      ...Object.entries(module.functions),
      ...Object.entries(module.classes).flatMap(([name, held]) => Object.entries(held.methods).map(([method, fn]): [string, { calls?: string[] }] => [`${name}.${method}`, fn])),
    ];
    for (const [name, fn] of defs) {
      const count = (fn.calls ?? []).filter((call) => composers.has(call.replace(/\?$/, ''))).length;
      if (count > 0 && (!best || count > best.count || (count === best.count && name < best.name))) best = { name, count };
    }
  }
  const place = best ? source.places.get(`def:${best.name}`) : undefined;
  return place ? `${source.root}/${place}` : undefined;
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

/** Cell facets and rules about the whole answer, placed at the def that runs the composers. */
const WHOLE_ANSWER: ReadonlySet<string> = new Set(['converged', 'render', 'xr-converges', 'deterministic-output', 'determinism']);

/**
 * `where` for each finding about one provider's subject whose source was read: its own place, then, for
 * a divergence, `<provider>: file:line` of one provider that holds the convention. A split blames nobody:
 * it carries one place per way (`<provider>: file:line` of a provider holding it). Findings that already
 * say where (style) are left as they are.
 */
export function withWhere(findings: readonly Finding[], sources: ReadonlyMap<string, SourcePlaces>): Finding[] {
  return findings.map((finding) => {
    if (finding.where) return finding;
    if (finding.type === 'split') return withWays(finding, sources);
    if (!PLACED.has(finding.type) || !finding.provider) return finding;
    const source = sources.get(finding.provider);
    if (!source) return finding;
    const { subject, facet, detail } = causeOf(finding);
    // A rule's subject has no convention: any other provider that composes it shows the job.
    const holders = finding.type === 'rule' ? [...sources].filter(([name]) => name !== finding.provider).sort(([a], [b]) => (a < b ? -1 : 1)) : holdersOf(finding, sources);
    const whole = WHOLE_ANSWER.has(subject) || (facet !== undefined && WHOLE_ANSWER.has(facet));
    const own = (whole ? entryOf(source) : undefined) ?? placeOfSubject(source, subject, facet, detail) ?? counterpartOf(source, subject, holders.map(([, held]) => held));
    if (!own) return finding;
    return { ...finding, where: [own, ...followerOf(finding, sources)] };
  });
}

/**
 * A split's ways placed: each group with the place of every holder whose source shows the subject
 * (`groups[].where`), and the finding's own `where` one place per way, its first such holder.
 */
function withWays(finding: Finding, sources: ReadonlyMap<string, SourcePlaces>): Finding {
  const { subject, facet } = causeOf(finding);
  const groups = (finding.groups ?? []).map((group) => {
    const convention = finding.groups!.find((other) => other !== group)?.value;
    const where = group.providers.flatMap((provider) => {
      const source = sources.get(provider);
      const place = source ? placeOfSubject(source, subject, facet, { own: group.value, convention }) : undefined;
      return place ? [`${provider}: ${place}`] : [];
    });
    return where.length ? { ...group, where } : group;
  });
  const where = groups.flatMap((group) => [...(group.where ?? [])].sort().slice(0, 1));
  return where.length ? { ...finding, groups, where } : finding;
}

/**
 * What a finding's cause is about in the code, with the provider's value and the convention's. A
 * perturbation's outcome (`then[0] remove-credentials`) differs by the roles it drops or leaves
 * unmarked: the first role one side has and the other not, whose gate on what the perturbation took
 * away decides it (else its composer).
 */
export function causeOf(finding: Finding): { subject: string; facet: string | undefined; detail: Detail } {
  const detail: Detail = finding.provider && finding.values ? { own: finding.values[finding.provider], convention: finding.consensus ?? conventionOf(finding) } : {};
  if (finding.facet !== 'outcome' || !finding.provider || !finding.values) return { subject: finding.subject, facet: finding.facet, detail };
  const roles = (value: unknown) => {
    const outcome = (value ?? {}) as { dropped?: unknown; unmarked?: unknown };
    return new Set([outcome.dropped, outcome.unmarked].flatMap((list) => (Array.isArray(list) ? list.map(String) : [])));
  };
  const own = roles(finding.values[finding.provider]);
  const convention = roles(detail.convention);
  const differingRoles = [...new Set([...own, ...convention])].filter((role) => own.has(role) !== convention.has(role)).sort();
  const taken = takenBy(finding.subject);
  return differingRoles[0] ? { subject: differingRoles[0], facet: 'gated-on', detail: { own: taken ? [taken] : [], convention: [] } } : { subject: finding.subject, facet: finding.facet, detail };
}

/** What a perturbation (`then[0] remove-credentials`, `then[1] delete cluster`) takes away, as a gate name. */
function takenBy(subject: string): string | undefined {
  const verb = subject.replace(/^then\[\d+\]\s*/, '');
  if (/credentials/.test(verb)) return 'credentials';
  const match = /^(delete|unready|withdraw-fact):?\s*(\S+)/.exec(verb);
  if (!match) return undefined;
  if (match[1] === 'delete') return `${match[2]}.exists`;
  if (match[1] === 'unready') return `${match[2]}.ready`;
  return match[2];
}

/** A divergence without a stated convention (a provider leaving an accepted way): the value most others hold. */
function conventionOf(finding: Finding): unknown {
  if (!finding.values) return undefined;
  const counts = new Map<string, { value: unknown; count: number }>();
  for (const [provider, value] of Object.entries(finding.values)) {
    if (provider === finding.provider) continue;
    const key = stableStringify(value ?? null);
    const held = counts.get(key) ?? { value, count: 0 };
    held.count += 1;
    counts.set(key, held);
  }
  return [...counts.values()].sort((a, b) => b.count - a.count)[0]?.value;
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
  const { subject, facet, detail } = causeOf(finding);
  for (const [provider, source] of holdersOf(finding, sources)) {
    const place = placeOfSubject(source, subject, facet, { own: detail.convention, convention: detail.own });
    if (place) return [`${provider}: ${place}`];
  }
  return [];
}
