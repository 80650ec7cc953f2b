import type { FacetMeta } from '../meta.js';
import { helpersOf, pairHelpers, signatureShape, type Helper } from './jobs.js';
import { bare, isPrivate, type AddFacet, type SourceFamily, type SourceSubject } from './subject.js';

/**
 * Helpers by job (docs/style.md, "Helpers by job"), paired provider to provider (jobs.ts): each
 * pair's name, visibility, signature shape, docstring and the shape of what it returns, and a
 * helper only some providers have (`helper-presence`).
 */

/** Where these facets' values come from. */
const SOURCE = { source: 'outline', scope: 'source', extractor: 'src/facets/source/helpers.ts' } as const;

const META: readonly FacetMeta[] = [
  {
    id: 'helper-name',
    class: 'stylistic',
    ...SOURCE,
    description: 'The name of the helper doing each job (docs/style.md: helpers matched by job).',
    compares: 'the names (leading underscores aside) of the helpers with that job',
    example: 'acme names the helper that returns bool and reads observed `_is_ready` where the others use `_observed_ready`',
    fix: 'rename the helper to the convention’s name',
  },
  {
    id: 'helper-visibility',
    class: 'stylistic',
    ...SOURCE,
    description: 'Whether the helper doing each job is public or private.',
    compares: 'public or private (a leading underscore) for each helper with that job',
    example: 'acme’s `credentials_ref` is public where the others’ `_credentials_ref` is private',
    fix: 'give the helper the convention’s leading underscore (or drop it)',
  },
  {
    id: 'helper-signature',
    class: 'stylistic',
    ...SOURCE,
    description: 'The signature shape of the helper doing each job.',
    compares: 'the count of required positional parameters and whether it takes *args or **kwargs (names, annotations and optional parameters aside)',
    example: 'acme’s `_desire(body, key, extra)` takes three where the others take two',
    fix: 'take the parameters the convention takes',
  },
  {
    id: 'helper-docstring',
    class: 'stylistic',
    ...SOURCE,
    description: 'Whether the helpers doing each job carry a docstring.',
    compares: 'documented or undocumented',
    example: 'acme’s `_observed_fact` has no docstring where the others’ do',
    fix: 'add a one-line docstring saying what it does',
  },
  {
    id: 'helper-presence',
    class: 'stylistic',
    ...SOURCE,
    description: 'A helper that reads the request’s state and that the convention does without.',
    compares: 'whether a provider defines a helper for that job (judged one way: only a helper the convention lacks is a finding)',
    example: 'only acme defines `_dependents_ready`; the others gate in the role composer',
    fix: 'do the job where the others do (inline it)',
  },
  {
    id: 'data-shape',
    class: 'stylistic',
    ...SOURCE,
    description: 'The shape of the data a helper returns for its job.',
    compares: 'dict, tuple, dataclass, NamedTuple or TypedDict, from the return annotation',
    example: 'acme’s `_node_pool` returns a `NodePool` dataclass where the others return a dict',
    fix: 'return the convention’s shape',
  },
];

/** Each provider's helpers by job, computed once. */
function jobsOf(subject: SourceSubject): Map<string, Helper[]> {
  const out = new Map<string, Helper[]>();
  for (const helper of helpersOf(subject.outline, subject.composers).helpers) out.set(helper.job, [...(out.get(helper.job) ?? []), helper]);
  return out;
}

function extract(subjects: readonly SourceSubject[], add: AddFacet): void {
  const jobs = new Map(subjects.map((subject) => [subject.provider, jobsOf(subject)]));
  // Helper by helper: each pair of one job is compared on its own, so one extra helper is one finding.
  for (const pair of pairHelpers(jobs)) {
    const subject = pair.name;
    const key = `${pair.job}: ${subject}`;
    const place = (p: string) => {
      const helper = pair.members.get(p);
      return helper ? `def:${helper.qualified}` : '';
    };
    const describe = `the helper that ${pair.job.replace(/; /g, ', ')}`;
    for (const [provider, helper] of pair.members) {
      add(provider, { subject, key, facet: 'helper-name', describe: `${describe}: its name`, placeKey: place }, bare(helper.name));
      add(provider, { subject, key, facet: 'helper-visibility', describe: `${describe}: public or private`, placeKey: place }, isPrivate(helper.name) ? 'private' : 'public');
      add(provider, { subject, key, facet: 'helper-signature', describe: `${describe}: its signature's shape`, placeKey: place }, signatureShape(helper));
      add(provider, { subject, key, facet: 'helper-docstring', describe: `${describe}: a docstring`, placeKey: place }, helper.outline.docstring ? 'documented' : 'undocumented');
      add(provider, { subject, key, facet: 'data-shape', describe: `${describe}: the shape of what it returns`, placeKey: place }, helper.shape);
    }
    // A helper only some providers have: blamed on those that have it when a convention lacks it. Only a
    // helper that reads the request's state is judged so: a body builder that reads the spec alone
    // (an IAM policy document, a zone name) is how that cloud spells its resources.
    if (![...pair.members.values()].some((helper) => helper.readsRequest && !helper.phase)) continue;
    for (const { provider } of subjects) {
      add(provider, { subject, facet: 'helper-presence', describe: `a helper that ${pair.job.replace(/; /g, ', ')}`, placeKey: place, presence: true, key }, pair.members.has(provider) ? 'defined' : 'absent');
    }
  }
}

export const HELPERS: SourceFamily = { meta: META, extract };
