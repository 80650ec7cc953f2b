/** drift's V8 flags per kind of process (bin/v8-flags.js), as docs/performance.md's measurements chose them. */
import { describe, expect, it } from 'vitest';
// @ts-expect-error bin/ is plain JavaScript without declarations
import { commandOf, driftV8Flags } from '../../bin/v8-flags.js';

describe('driftV8Flags', () => {
  it('gives the baseline tiers to commands that render and to drift mcp, Node\'s own to those that only print', () => {
    for (const args of [['diff'], ['-c', 'x.yaml', 'update', '-p', 'gke'], ['--no-cache', 'render'], ['mcp'], ['-j', '2', 'expect']]) expect(driftV8Flags({}, args), args.join(' ')).toEqual(['--no-opt', '--liftoff-only']);
    for (const args of [['list'], ['rules'], ['facets'], ['--version'], ['-c', 'list', 'rules'], []]) expect(driftV8Flags({}, args), args.join(' ')).toEqual([]);
    expect(driftV8Flags({ DRIFT_TURBOFAN: '1' }, ['diff'])).toEqual([]);
    // migrate's cost is the accepted list's size: the optimising tiers (docs/limits.md, 31k entries).
    expect(driftV8Flags({}, ['migrate', '-c', 'a.yaml'])).toEqual([]);
  });

  it("finds the command past the global options' values", () => {
    expect(commandOf(['-c', 'diff', 'list'])).toBe('list');
    expect(commandOf(['--concurrency', '3', '--no-color', 'diff'])).toBe('diff');
    expect(commandOf(['-V'])).toBe('none');
  });
});
