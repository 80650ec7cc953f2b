import path from 'node:path';
import type { Project } from '../config/types.js';
import type { WritePolicy } from '../util/ci.js';
import { GoldenStore } from './store.js';

/**
 * The generated contract on disk (the config's `contract` folder, `providers/` by default): whole
 * files, written through the same atomic writer as the goldens, when the write policy allows the contract.
 */
export class ContractStore {
  private readonly files: GoldenStore;

  constructor(readonly dir: string, policy?: WritePolicy) {
    this.files = new GoldenStore(dir, policy, [], 'contract');
  }

  static of(project: Project): ContractStore {
    return new ContractStore(path.resolve(project.config.root, project.config.contract), project.policy.write);
  }

  /** The files whose committed text differs from what drift would write (missing ones included). */
  stale(files: ReadonlyArray<{ file: string; text: string }>): string[] {
    return files.filter(({ file, text }) => this.files.read(file) !== text).map(({ file }) => file);
  }

  /** Whether any of the files is committed: a project that never ran `drift contract` has adopted none. */
  adopted(files: ReadonlyArray<{ file: string }>): boolean {
    return files.some(({ file }) => this.files.has(file));
  }

  /** Writes the files that changed; returns them. */
  write(files: ReadonlyArray<{ file: string; text: string }>): string[] {
    const changed = this.stale(files);
    for (const { file, text } of files) if (changed.includes(file)) this.files.write(file, text);
    return changed;
  }
}
