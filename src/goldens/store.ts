import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import type { Project } from '../config/types.js';
import { DriftError } from '../errors.js';
import { OUTLINE_GOLDEN } from '../compare/outline-golden.js';
import { isCI } from '../util/ci.js';

/** goldens/<provider>/<scenario>.yaml: the only place drift writes, always atomically. */
export class GoldenStore {
  constructor(readonly dir: string) {}

  /** The store of a project: its config's `goldens` folder. */
  static of(project: Project): GoldenStore {
    return new GoldenStore(path.resolve(project.config.root, project.config.goldens));
  }

  file(provider: string, scenario: string): string {
    return path.join(this.dir, provider, `${scenario}.yaml`);
  }

  /** goldens/<provider>/outline.yaml: the provider's source outline, beside its skeletons. */
  outlineFile(provider: string): string {
    return path.join(this.dir, provider, `${OUTLINE_GOLDEN}.yaml`);
  }

  readOutline(provider: string): string | undefined {
    const file = this.outlineFile(provider);
    return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  }

  writeOutline(provider: string, text: string): void {
    this.writeAtomically(this.outlineFile(provider), text);
  }

  read(provider: string, scenario: string): string | undefined {
    const file = this.file(provider, scenario);
    return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  }

  /** Every golden on disk, as provider/scenario pairs. */
  async list(): Promise<Array<{ provider: string; scenario: string; file: string }>> {
    if (!existsSync(this.dir)) return [];
    // An outline golden is the provider's, not a scenario's.
    const files = await fg('*/*.yaml', { cwd: this.dir, onlyFiles: true, ignore: [`*/${OUTLINE_GOLDEN}.yaml`] });
    return files.sort().map((relative) => {
      const [provider, name] = relative.split('/') as [string, string];
      return { provider, scenario: name.replace(/\.yaml$/, ''), file: path.join(this.dir, relative) };
    });
  }

  /** goldens/accepted.yaml: the divergences and rule findings the team accepts. */
  get acceptedFile(): string {
    return path.join(this.dir, 'accepted.yaml');
  }

  write(provider: string, scenario: string, text: string): void {
    this.writeAtomically(this.file(provider, scenario), text);
  }

  writeAccepted(text: string): void {
    this.writeAtomically(this.acceptedFile, text);
  }

  /** Through a temporary file and a rename, so a file is never half-written; never under CI. */
  private writeAtomically(file: string, text: string): void {
    refuseUnderCI();
    mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.tmp-${process.pid}`;
    writeFileSync(temporary, text);
    renameSync(temporary, file);
  }

  remove(file: string): void {
    refuseUnderCI();
    rmSync(file);
  }
}

export function refuseUnderCI(): void {
  if (isCI()) {
    throw new DriftError('CI is set: drift never writes goldens in CI. Run `drift update` locally (or comment `/drift update` on the pull request) and commit the result.');
  }
}
