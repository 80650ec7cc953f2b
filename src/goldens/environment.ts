/**
 * Where golden files live, kept apart from what drift does with them (after Vitest's snapshot
 * environment): the real one is the file system (store.ts), unit tests use one in memory
 * (memory.ts). Paths are relative to the goldens folder, with `/` separators:
 * `<provider>/<scenario>.yaml`, `accepted.yaml`.
 */
export interface GoldenEnvironment {
  /** The goldens folder, as messages name it. */
  readonly dir: string;
  /** A file's text, or undefined when there is none. */
  read(file: string): string | undefined;
  /** Writes a whole file at once: a reader sees the old text or the new, never part of it. */
  write(file: string, text: string): void;
  remove(file: string): void;
  /** Every `<provider>/<scenario>.yaml`, sorted. Never a leftover temporary file. */
  list(): string[];
  /** Removes what an interrupted write left behind, and says which files those were. */
  sweep(): string[];
}

export const goldenFile = (provider: string, scenario: string): string => `${provider}/${scenario}.yaml`;

/** The name of a provider's outline golden beside its skeletons: `<provider>/outline.yaml`. */
export const OUTLINE_NAME = 'outline';

/** `<provider>/outline.yaml`: the provider's source outline, which belongs to no scenario. */
export const outlineFile = (provider: string): string => `${provider}/${OUTLINE_NAME}.yaml`;

/** `<provider>/<scenario>.yaml` back to its cell; undefined for anything else, an outline golden included. */
export function cellOf(file: string): { provider: string; scenario: string } | undefined {
  const match = /^([^/]+)\/([^/]+)\.yaml$/.exec(file);
  if (!match || match[2] === OUTLINE_NAME) return undefined;
  return { provider: match[1]!, scenario: match[2]! };
}
