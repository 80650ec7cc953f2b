import type { CachePolicy } from '../cache/policy.js';
import type { LockedConvention } from '../compare/locked.js';
import { DriftError } from '../errors.js';
import { appendListItem, removeListItem } from '../config/listText.js';
import { packageFile } from '../config/paths.js';
import type { Project } from '../config/types.js';
import { readLocatedYamlFile } from '../config/yamlFile.js';
import { GoldenStore } from './store.js';

/** goldens/conventions.yaml, relative to the goldens folder. */
export const CONVENTIONS_FILE = 'conventions.yaml';

const HEADER = [
  '# yaml-language-server: $schema=../schemas/conventions.schema.json',
  '# Conventions the team has locked: every provider is held to them like a contract rule, even when most',
  '# differ. `drift lock <facet> --subject S --reason "..."` adds one, `drift unlock` removes it; a provider',
  '# may hold an exception through goldens/accepted.yaml (facet, subject, providers, reason).',
  'locked: []',
  '',
].join('\n');

/**
 * goldens/conventions.yaml: read here, written through the golden store. Locking appends one entry
 * and unlocking removes one, leaving every other byte of the file as it was (listText.ts).
 */
export class ConventionStore {
  constructor(
    private readonly store: GoldenStore,
    /** The run's cache policy: the parsed file is kept under it. */
    private readonly cache: CachePolicy | undefined,
  ) {}

  static of(project: Project): ConventionStore {
    return new ConventionStore(GoldenStore.of(project), project.cache);
  }

  get file(): string {
    return this.store.path(CONVENTIONS_FILE);
  }

  /** The file's text; undefined when nothing was ever locked. */
  read(): string | undefined {
    return this.store.read(CONVENTIONS_FILE);
  }

  /** The locked conventions, validated against the schema (a bad file names its line); none without a file. */
  load(text = this.read()): LockedConvention[] {
    return text === undefined ? [] : this.located(text).data.locked;
  }

  /** The entry already locked on this facet and subject, with its line, if there is one. */
  find(text: string | undefined, facet: string, subject: string): { index: number; line: number; convention: LockedConvention } | undefined {
    if (text === undefined) return undefined;
    const { data, locate } = this.located(text);
    const index = data.locked.findIndex((convention) => convention.facet === facet && convention.subject === subject);
    return index < 0 ? undefined : { index, line: locate(['locked', index]).line, convention: data.locked[index]! };
  }

  /** Appends the convention to `text` (the file as just read, under the caller's lock) and writes it. */
  lock(text: string | undefined, convention: LockedConvention, shown: string): void {
    this.write(() => appendListItem(text ?? HEADER, 'locked', convention), shown, `add it by hand: ${JSON.stringify(convention)}`);
  }

  /** Removes entry `index` from `text` and writes the file. */
  unlock(text: string, index: number, shown: string): void {
    this.write(() => removeListItem(text, 'locked', index), shown, `remove entry ${index + 1} by hand`);
  }

  private located(text: string) {
    return readLocatedYamlFile<{ locked: LockedConvention[] }>(this.file, packageFile('schemas/conventions.schema.json'), { text, cache: this.cache });
  }

  private write(edit: () => string, shown: string, byHand: string): void {
    let after: string;
    try {
      after = edit();
    } catch (error) {
      throw new DriftError(`cannot edit ${shown} in place: ${(error as Error).message}; ${byHand}. Nothing changed.`);
    }
    this.store.write(CONVENTIONS_FILE, after);
  }
}
