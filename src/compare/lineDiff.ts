import sequences from '@jest/diff-sequences';

/**
 * A unified diff of two texts, line by line, in the format jest-diff prints for two strings without
 * colour and without expanding (reports, the HTML page's side-by-side view and users' eyes know it):
 *
 *     - golden
 *     + rendered
 *
 *     @@ -3,4 +3,4 @@        (only when unchanged lines were left out)
 *       kept line
 *     - removed line
 *     + added line
 *
 * drift compared two strings with jest-diff, which brought pretty-format, chalk and ten more packages
 * for values it never formats; the longest common subsequence is still Jest's (@jest/diff-sequences).
 * test/unit/line-diff.test.ts holds this to jest-diff's output on generated texts.
 */

export interface LineDiffOptions {
  /** What the first and the second text are: the annotation lines. */
  before: string;
  after: string;
  /** Unchanged lines kept on each side of a change. */
  context: number;
}

type Op = ' ' | '-' | '+';
interface Line {
  op: Op;
  text: string;
}

// The package's types describe its CommonJS build, whose default export is a property of the module;
// its ES module entry (what Node and the bundler load) exports the function itself.
const diffSequences = (typeof sequences === 'function' ? sequences : sequences.default) as typeof sequences.default;

/** What two equal texts diff to. */
export const NO_DIFFERENCE = 'Compared values have no visual difference.';

/** The diff of `before` and `after` (see the module's comment). */
export function lineDiff(before: string, after: string, options: LineDiffOptions): string {
  if (before === after) return NO_DIFFERENCE;
  const lines = aligned(linesOf(before), linesOf(after));
  return `- ${options.before}\n+ ${options.after}\n\n${hunks(lines, options.context)}`;
}

/** Control characters other than tab and line breaks as escapes, so that a diff shows them. */
const escaped = (text: string): string =>
  text.replaceAll(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g, (match) => {
    if (match === '\b') return '\\b';
    if (match === '\f') return '\\f';
    if (match === '\v') return '\\v';
    return `\\x${match.codePointAt(0)!.toString(16).padStart(2, '0')}`;
  });

/** The text's lines; none for an empty text (a section that is absent on one side). */
const linesOf = (text: string): string[] => (text === '' ? [] : escaped(text).split('\n'));

/** Both texts' lines in one sequence: kept, removed (from `a`) and added (from `b`), removals first at each change. */
function aligned(a: readonly string[], b: readonly string[]): Line[] {
  const lines: Line[] = [];
  let i = 0;
  let j = 0;
  const changesUpTo = (aEnd: number, bEnd: number) => {
    for (; i < aEnd; i += 1) lines.push({ op: '-', text: a[i]! });
    for (; j < bEnd; j += 1) lines.push({ op: '+', text: b[j]! });
  };
  diffSequences(
    a.length,
    b.length,
    (ai, bi) => a[ai] === b[bi],
    (common, aCommon, bCommon) => {
      changesUpTo(aCommon, bCommon);
      for (let n = 0; n < common; n += 1, i += 1, j += 1) lines.push({ op: ' ', text: b[j]! });
    },
  );
  changesUpTo(a.length, b.length);
  return lines;
}

/**
 * The lines printed: an unchanged line is kept when at most `context` unchanged lines separate it from
 * a change; when any was left out, each run of kept lines opens with its `@@ -start,count +start,count @@`.
 */
function hunks(lines: readonly Line[], context: number): string {
  const kept = lines.map(() => false);
  // Distance to the nearest change, walking forward then back.
  for (const order of [lines.keys(), [...lines.keys()].reverse()]) {
    let since = Number.POSITIVE_INFINITY;
    for (const k of order) {
      since = lines[k]!.op === ' ' ? since + 1 : 0;
      if (since <= context) kept[k] = true;
    }
  }
  const omitted = kept.includes(false);
  const out: string[] = [];
  let aLine = 0;
  let bLine = 0;
  for (let k = 0; k < lines.length; ) {
    if (!kept[k]) {
      if (lines[k]!.op !== '+') aLine += 1;
      if (lines[k]!.op !== '-') bLine += 1;
      k += 1;
      continue;
    }
    let end = k;
    while (end < lines.length && kept[end]) end += 1;
    const hunk = lines.slice(k, end);
    const aCount = hunk.filter((line) => line.op !== '+').length;
    const bCount = hunk.filter((line) => line.op !== '-').length;
    if (omitted) out.push(`@@ -${aLine + 1},${aCount} +${bLine + 1},${bCount} @@`);
    for (const line of hunk) out.push(printed(line));
    aLine += aCount;
    bLine += bCount;
    k = end;
  }
  return out.join('\n');
}

/** A line with its mark; an empty line is its mark alone, an unchanged empty line nothing at all. */
const printed = ({ op, text }: Line): string => (text === '' ? (op === ' ' ? '' : op) : `${op} ${text}`);
