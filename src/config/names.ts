import { DriftError } from '../errors.js';

/**
 * The one pattern of provider and scenario names: lowercase letters, digits and hyphens, starting
 * and ending with a letter or digit (a DNS label, as Kubernetes names are). A name becomes a folder
 * (goldens/<provider>/), a file (<scenario>.yaml) and part of finding ids, so it can carry no path
 * separator, dot-dot, space or quote. The schemas' `name` pattern is the same.
 */
export const NAME_PATTERN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

/** The longest name: a DNS label's 63 characters. */
export const MAX_NAME_LENGTH = 63;

export const NAME_RULE = 'lowercase letters, digits and hyphens, starting and ending with a letter or digit, at most 63 characters';

export function isName(name: string): boolean {
  return name.length <= MAX_NAME_LENGTH && NAME_PATTERN.test(name);
}

/** Refuses a provider, scenario or subject name given on the command line before anything runs. */
export function checkName(name: string, what: string): string {
  if (!isName(name)) throw new DriftError(`${JSON.stringify(name)} is not a ${what} name: ${NAME_RULE}. Nothing ran.`);
  return name;
}

/**
 * A subject of a facet (`drift lock --subject`): a role or subject name, or a perturbation as the
 * findings spell it, `then[0] remove-credentials` or `then[1] unready cluster`.
 */
const SUBJECT_PATTERN = /^([a-z0-9]([a-z0-9-]*[a-z0-9])?|then\[\d{1,3}\]( [a-z0-9]([a-z0-9-]*[a-z0-9])?){1,3})$/;

export function checkSubject(subject: string): string {
  if (subject.length > 200 || !SUBJECT_PATTERN.test(subject)) {
    throw new DriftError(`${JSON.stringify(subject)} is not a subject: a role or subject name (${NAME_RULE}) or a perturbation such as "then[0] remove-credentials", as drift diff prints it. Nothing changed.`);
  }
  return subject;
}
