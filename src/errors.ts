/** Raised when drift itself cannot do its job (exit code 2): bad input, a provider that will not start. */
export class DriftError extends Error {
  override name = 'DriftError';
}

/** A problem in one input file, located so an editor can jump to it. */
export class InputError extends DriftError {
  override name = 'InputError';

  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly problem: string,
  ) {
    super(`${file}:${line}:${column}: ${problem}`);
  }
}
