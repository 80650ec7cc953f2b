import type { GoldenEnvironment } from './environment.js';

/** Golden files in a map: the environment unit tests give the golden state, so they touch no disk. */
export class MemoryEnvironment implements GoldenEnvironment {
  readonly files: Map<string, string>;

  constructor(
    files: Record<string, string> = {},
    readonly dir = 'goldens',
  ) {
    this.files = new Map(Object.entries(files));
  }

  read(file: string): string | undefined {
    return this.files.get(file);
  }

  write(file: string, text: string): void {
    this.files.set(file, text);
  }

  remove(file: string): void {
    this.files.delete(file);
  }

  list(): string[] {
    return [...this.files.keys()].filter((file) => /^[^/]+\/[^/]+\.yaml$/.test(file)).sort();
  }

  /** Writes here are whole at once: nothing is ever left half-done. */
  sweep(): string[] {
    return [];
  }
}
