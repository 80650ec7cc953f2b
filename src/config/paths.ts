import { fileURLToPath } from 'node:url';

/** Files that ship with drift itself (schemas), located from the compiled module. */
export function packageFile(relative: string): string {
  return fileURLToPath(new URL(`../../${relative}`, import.meta.url));
}
