/**
 * Where a seeded edit landed in a provider's source: the lines it changed in the seeded file and the
 * defs that hold them, so a test can ask whether a finding's `where` points at the edit (within a few
 * lines of a changed line, or inside a def the edit changed). Lines are 1-based; a pure deletion
 * counts as the line that now stands where the deleted text was.
 */

export interface EditPlace {
  /** Lines of the seeded file that differ from the original. */
  lines: number[];
  /** Each def (line range, inclusive) holding a changed line. */
  defs: Array<{ name: string; from: number; to: number }>;
}

/** The lines of `after` not in a longest common subsequence with `before`; a deletion marks the next line. */
function changedLines(before: string[], after: string[]): number[] {
  const n = before.length;
  const m = after.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => Array.from({ length: m + 1 }, () => 0));
  for (let i = n - 1; i >= 0; i -= 1) for (let j = m - 1; j >= 0; j -= 1) lcs[i]![j] = before[i] === after[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const changed = new Set<number>();
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && before[i] === after[j]) {
      i += 1;
      j += 1;
    } else if (j < m && (i >= n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      changed.add(j + 1);
      j += 1;
    } else {
      changed.add(Math.min(j + 1, m));
      i += 1;
    }
  }
  return [...changed].sort((a, b) => a - b);
}

const indentOf = (line: string) => line.length - line.trimStart().length;

/** The innermost def (by indentation) that holds line `at` of `lines`. */
function defHolding(lines: string[], at: number): { name: string; from: number; to: number } | undefined {
  let below = Number.POSITIVE_INFINITY;
  for (let row = Math.min(at, lines.length) - 1; row >= 0; row -= 1) {
    const text = lines[row]!;
    if (!text.trim()) continue;
    const indent = indentOf(text);
    const match = /^\s*(?:async\s+)?def (\w+)/.exec(text);
    if (match && (indent < below || row === at - 1)) {
      // A signature wrapped over several lines ends at the first line ending with a colon.
      let header = row;
      while (header < lines.length - 1 && !lines[header]!.trimEnd().endsWith(':')) header += 1;
      let to = header + 1;
      for (let next = header + 1; next < lines.length; next += 1) {
        const line = lines[next]!;
        if (line.trim() && indentOf(line) <= indent) break;
        if (line.trim()) to = next + 1;
      }
      return to >= at ? { name: match[1]!, from: row + 1, to } : undefined;
    }
    // A wrapped signature's closing line (`) -> dict:`) sits at its def's indent without ending it.
    if (!/^[)\]}]/.test(text.trim())) below = Math.min(below, indent);
  }
  return undefined;
}

export function editPlace(before: string, after: string): EditPlace {
  const afterLines = after.split('\n');
  const lines = changedLines(before.split('\n'), afterLines);
  const defs = new Map<string, { name: string; from: number; to: number }>();
  for (const line of lines) {
    const def = defHolding(afterLines, line);
    if (def) defs.set(`${def.from}`, def);
  }
  return { lines, defs: [...defs.values()] };
}

/** Whether `line` lies within `slack` lines of the edit, or inside a def it changed. */
export function atEdit(place: EditPlace, line: number, slack = 3): boolean {
  return place.lines.some((changed) => Math.abs(changed - line) <= slack) || place.defs.some((def) => line >= def.from && line <= def.to);
}
