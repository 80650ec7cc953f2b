/**
 * `drift migrate` for ids: an entry of goldens/accepted.yaml that accepts a finding by an id of drift
 * before report schemaVersion 2 (which named the scenario) gets the current id, and the scenario it named
 * beside it, so it accepts exactly what it accepted before. Only the id's scalar changes and one
 * `scenario:` line is added: comments, quoting and every other byte stay (the yaml Document gives the
 * places). Idempotent: a current id is left as it is. Pure: text in, text out.
 */
import { isMap, isScalar, isSeq, LineCounter, parse, parseDocument, Scalar, type Node } from 'yaml';
import { factsOfId, legacyIdOf } from '../compare/findingId.js';
import { DriftError } from '../errors.js';

export interface IdRewrite {
  /** 1-based entry and its line in the file. */
  entry: number;
  line: number;
  from: string;
  to: string;
  scenario: string;
}

/** The id as the file had it quoted: plain where plain reads back the same, else as the file quoted it, else double-quoted. */
function quoted(id: string, type: Scalar['type']): string {
  if (type === Scalar.QUOTE_SINGLE) return `'${id.replace(/'/g, "''")}'`;
  if (type !== Scalar.QUOTE_DOUBLE && (parse(`id: ${id}`) as { id?: unknown } | null)?.id === id && !id.includes('#')) return id;
  return JSON.stringify(id);
}

const FINDING_ID = /^(div|split|rule):/;

/** `text` with every legacy id rewritten, and what was rewritten; an id it cannot read is an error naming file:line. */
export function migrateAcceptedIds(text: string, scenarios: ReadonlySet<string>, file: string): { text: string; rewrites: IdRewrite[] } {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines });
  const list = document.get('accepted', true) as Node | undefined;
  if (!isSeq(list)) return { text, rewrites: [] };
  const edits: Array<{ at: number; end: number; text: string }> = [];
  const rewrites: IdRewrite[] = [];
  list.items.forEach((item, index) => {
    if (!isMap(item)) return;
    const pair = item.items.find((candidate) => isScalar(candidate.key) && candidate.key.value === 'id');
    if (!pair || !isScalar(pair.value) || typeof pair.value.value !== 'string' || !pair.value.range) return;
    const id = pair.value.value;
    const [start, end] = pair.value.range;
    const { line, col } = lines.linePos(start);
    const where = `${file}:${line}:${col}`;
    const legacy = legacyIdOf(id, scenarios);
    if (!legacy) {
      if (FINDING_ID.test(id) && !factsOfId(id)) throw new DriftError(`${where}: cannot read the finding id "${id}" (entry ${index + 1}): write it as drift diff prints it now (div:<subject>:<facet>:<provider>, split:<subject>:<facet>, rule:<rule-id>:<provider>:<subject>), with \`scenario: <name>\` beside it to keep it to one scenario. Nothing changed.`);
      return;
    }
    const scenarioPair = item.items.find((candidate) => isScalar(candidate.key) && candidate.key.value === 'scenario');
    const named = scenarioPair && isScalar(scenarioPair.value) ? scenarioPair.value.value : undefined;
    if (scenarioPair && named !== legacy.scenario) {
      throw new DriftError(`${where}: entry ${index + 1} accepts ${id}, of scenario ${legacy.scenario}, but names scenario ${String(named)}: it can match nothing; fix or remove it by hand. Nothing changed.`);
    }
    edits.push({ at: start, end, text: quoted(legacy.id, pair.value.type) });
    if (!scenarioPair) {
      if (item.flow) throw new DriftError(`${where}: entry ${index + 1} is a flow map; rewrite it by hand as id: ${legacy.id} with scenario: ${legacy.scenario}. Nothing changed.`);
      // After the id's line (a comment on it stays with it), at the id key's indent.
      const keyStart = (pair.key as Scalar).range![0];
      const indent = ' '.repeat(lines.linePos(keyStart).col - 1);
      const newline = text.indexOf('\n', end);
      const at = newline < 0 ? text.length : newline;
      edits.push({ at, end: at, text: `\n${indent}scenario: ${quoted(legacy.scenario, Scalar.PLAIN)}` });
    }
    rewrites.push({ entry: index + 1, line, from: id, to: legacy.id, scenario: legacy.scenario });
  });
  if (rewrites.length === 0) return { text, rewrites };
  let out = text;
  for (const edit of edits.sort((a, b) => b.at - a.at)) out = `${out.slice(0, edit.at)}${edit.text}${out.slice(edit.end)}`;
  // What is written must read back as the old entries with exactly those ids and scenarios.
  const before = (parse(text) as { accepted: Array<Record<string, unknown>> }).accepted;
  const after = (parse(out) as { accepted?: Array<Record<string, unknown>> } | null)?.accepted;
  const expected = before.map((entry, index) => {
    const rewrite = rewrites.find((one) => one.entry === index + 1);
    return rewrite ? { ...entry, id: rewrite.to, scenario: rewrite.scenario } : entry;
  });
  if (JSON.stringify(after?.map(sorted)) !== JSON.stringify(expected.map(sorted))) throw new DriftError(`cannot rewrite the ids of ${file} in place; rewrite them by hand: ${rewrites.map((one) => `line ${one.line}: ${one.to} with scenario ${one.scenario}`).join('; ')}. Nothing changed.`);
  return { text: out, rewrites };
}

const sorted = (entry: Record<string, unknown>) => Object.fromEntries(Object.entries(entry).sort(([a], [b]) => (a < b ? -1 : 1)));
