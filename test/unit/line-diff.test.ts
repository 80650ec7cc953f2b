/**
 * compare/lineDiff.ts prints what jest-diff printed for two strings (reports, the HTML page's
 * side-by-side rows and users' habits rely on that format): jest-diff, a dev dependency now, is the
 * reference on generated texts.
 */
import { stripVTControlCharacters } from 'node:util';
import fc from 'fast-check';
import { diff as jestDiff } from 'jest-diff';
import { describe, expect, it } from 'vitest';
import { lineDiff, NO_DIFFERENCE } from '../../src/compare/lineDiff.js';

const reference = (a: string, b: string, context: number) =>
  stripVTControlCharacters(jestDiff(a, b, { aAnnotation: 'golden', bAnnotation: 'rendered', expand: false, contextLines: context, omitAnnotationLines: false }) ?? '');
const ours = (a: string, b: string, context: number) => lineDiff(a, b, { before: 'golden', after: 'rendered', context });

/** Texts of a few lines drawn from a small alphabet, so that changes sit among long runs of equal lines. */
const line = fc.constantFrom('', 'a', 'b', 'kind: Object', '  ready: 1', 'x\u0001y', 'tab\there', 'trailing  ', '\u007f');
const text = fc.array(line, { maxLength: 30 }).map((lines) => lines.join('\n'));

describe('the line diff', () => {
  it("is jest-diff's text for any two texts, hunks and line counts included", () => {
    fc.assert(
      fc.property(text, text, fc.integer({ min: 0, max: 4 }), (a, b, context) => {
        expect(ours(a, b, context)).toBe(reference(a, b, context));
      }),
      { numRuns: 2000 },
    );
  });

  it('marks the hunks only when unchanged lines were left out', () => {
    const a = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'].join('\n');
    const b = a.replace('four', 'FOUR');
    expect(ours(a, b, 2)).toBe('- golden\n+ rendered\n\n@@ -2,5 +2,5 @@\n  two\n  three\n- four\n+ FOUR\n  five\n  six');
    expect(ours(a, b, 5)).toBe('- golden\n+ rendered\n\n  one\n  two\n  three\n- four\n+ FOUR\n  five\n  six\n  seven\n  eight');
    expect(ours('', 'added: 1\n', 2)).toBe('- golden\n+ rendered\n\n+ added: 1\n+');
    expect(ours('same', 'same', 2)).toBe(NO_DIFFERENCE);
  });
});
