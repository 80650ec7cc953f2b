import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { DriftError } from '../errors.js';

/** goldens/<provider>/<scenario>.yaml: the only place drift writes, always atomically. */
export class GoldenStore {
  constructor(readonly dir: string) {}

  file(provider: string, scenario: string): string {
    return path.join(this.dir, provider, `${scenario}.yaml`);
  }

  read(provider: string, scenario: string): string | undefined {
    const file = this.file(provider, scenario);
    return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  }

  /** Every golden on disk, as provider/scenario pairs. */
  async list(): Promise<Array<{ provider: string; scenario: string; file: string }>> {
    if (!existsSync(this.dir)) return [];
    const files = await fg('*/*.yaml', { cwd: this.dir, onlyFiles: true });
    return files.sort().map((relative) => {
      const [provider, name] = relative.split('/') as [string, string];
      return { provider, scenario: name.replace(/\.yaml$/, ''), file: path.join(this.dir, relative) };
    });
  }

  /** Writes through a temporary file and a rename, so a golden is never half-written. */
  write(provider: string, scenario: string, text: string): void {
    refuseUnderCI();
    const file = this.file(provider, scenario);
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
  if (process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0') {
    throw new DriftError('CI is set: drift never writes goldens in CI. Run `drift update` locally (or comment `/drift update` on the pull request) and commit the result.');
  }
}
