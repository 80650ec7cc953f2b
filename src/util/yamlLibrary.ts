import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let library: typeof import('yaml') | undefined;

/**
 * The yaml library, loaded at its first use rather than with the module that uses it: its 70-odd
 * modules cost a start about 60 ms of CPU, and neither `drift list` nor an unchanged re-run (its
 * cells and documents cached) parses or writes any YAML through it.
 */
export function yamlLibrary(): typeof import('yaml') {
  library ??= require('yaml') as typeof import('yaml');
  return library;
}
