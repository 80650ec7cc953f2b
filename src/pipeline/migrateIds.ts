/**
 * `drift migrate` for ids: an entry of goldens/accepted.yaml that accepts a finding by an id of drift
 * before report schemaVersion 2 (which named the scenario) gets the current id, and the scenario it named
 * beside it, so it accepts exactly what it accepted before; an id an older drift spelled with a space,
 * bracket or comma (before ids were one shell word) is respelled as drift prints it now. Only the id's scalar changes and one
 * `scenario:` line is added: comments, quoting and every other byte stay (the yaml Document gives the
 * places). Idempotent: a current id is left as it is. Pure: text in, text out.
 */
import { isMap, isScalar, isSeq, LineCounter, parse, parseDocument, Scalar, type Node } from 'yaml';
import { factsOfId, legacyIdOf, respelledId } from '../compare/findingId.js';
import { DriftError } from '../errors.js';

export interface IdRewrite {
  /** 1-based entry and its line in the file. */
  entry: number;
  line: number;
  from: string;
  to: string;
  /** The scenario an id of before schemaVersion 2 named, now beside it; none when the id was only respelled. */
  scenario?: string;
}

/**
 * An id or name every YAML reader takes as the plain string it is (what drift's ids and scenario
 * names look like): no parse needed to know, which a list of 31k entries feels.
 */
const PLAIN_ID = /^[a-z][a-z0-9-]*(:[a-zA-Z0-9_./-]+)*$/;
/** Plain words YAML 1.1 or 1.2 reads as something other than a string. */
const NOT_STRINGS = new Set(['true', 'false', 'null', 'yes', 'no', 'on', 'off', 'y', 'n']);

/** The id as the file had it quoted: plain where plain reads back the same, else as the file quoted it, else double-quoted. */
function quoted(id: string, type: Scalar['type']): string {
  if (type === Scalar.QUOTE_SINGLE) return `'${id.replace(/'/g, "''")}'`;
  if (type !== Scalar.QUOTE_DOUBLE && ((PLAIN_ID.test(id) && !NOT_STRINGS.has(id)) || ((parse(`id: ${id}`) as { id?: unknown } | null)?.id === id && !id.includes('#')))) return id;
  return JSON.stringify(id);
}

const FINDING_ID = /^(div|split|rule):/;

/** `text` with `edits` (sorted by where they start, none overlapping) applied: one pass, so a list of 31k entries costs what it reads. */
function applyEdits(text: string, edits: ReadonlyArray<{ at: number; end: number; text: string }>): string {
  const parts: string[] = [];
  let from = 0;
  for (const edit of [...edits].sort((a, b) => a.at - b.at)) {
    parts.push(text.slice(from, edit.at), edit.text);
    from = edit.end;
  }
  parts.push(text.slice(from));
  return parts.join('');
}

/** The file's first YAML error at file:line:col (a duplicate key, bad indentation), before anything is read from it. */
function refuseInvalid(document: ReturnType<typeof parseDocument>, lines: LineCounter, file: string): void {
  const error = document.errors[0];
  if (!error) return;
  const { line, col } = lines.linePos(error.pos[0]);
  throw new DriftError(`${file}:${line}:${col}: not valid YAML: ${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}. Nothing changed.`);
}

/** `text` with every legacy id rewritten, and what was rewritten; an id it cannot read is an error naming file:line. */
export function migrateAcceptedIds(text: string, scenarios: ReadonlySet<string>, file: string): { text: string; rewrites: IdRewrite[] } {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  refuseInvalid(document, lines, file);
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
      const respelled = respelledId(id);
      if (respelled === id) return;
      // The id's scalar alone: what it accepts stays, scenario and all.
      edits.push({ at: start, end, text: quoted(respelled, pair.value.type) });
      rewrites.push({ entry: index + 1, line, from: id, to: respelled });
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
      // After the id's line (a comment on it stays with it), at the id key's indent, ending as the
      // file's lines end (CRLF stays CRLF).
      const keyStart = (pair.key as Scalar).range![0];
      const indent = ' '.repeat(lines.linePos(keyStart).col - 1);
      const newline = text.indexOf('\n', end);
      const crlf = newline > 0 && text[newline - 1] === '\r';
      const at = newline < 0 ? text.length : crlf ? newline - 1 : newline;
      const eol = crlf || (newline < 0 && text.includes('\r\n')) ? '\r\n' : '\n';
      edits.push({ at, end: at, text: `${eol}${indent}scenario: ${quoted(legacy.scenario, Scalar.PLAIN)}` });
    }
    rewrites.push({ entry: index + 1, line, from: id, to: legacy.id, scenario: legacy.scenario });
  });
  if (rewrites.length === 0) return { text, rewrites };
  const out = applyEdits(text, edits);
  // What is written must read back as the old entries with exactly those ids and scenarios.
  const before = (document.toJS() as { accepted: Array<Record<string, unknown>> }).accepted;
  const after = (parse(out) as { accepted?: Array<Record<string, unknown>> } | null)?.accepted;
  const byEntry = new Map(rewrites.map((rewrite) => [rewrite.entry, rewrite]));
  const expected = before.map((entry, index) => {
    const rewrite = byEntry.get(index + 1);
    return rewrite ? { ...entry, id: rewrite.to, ...(rewrite.scenario !== undefined ? { scenario: rewrite.scenario } : {}) } : entry;
  });
  if (JSON.stringify(after?.map(sorted)) !== JSON.stringify(expected.map(sorted))) throw new DriftError(`cannot rewrite the ids of ${file} in place; rewrite them by hand: ${rewrites.map((one) => `line ${one.line}: ${one.to}${one.scenario !== undefined ? ` with scenario ${one.scenario}` : ''}`).join('; ')}. Nothing changed.`);
  return { text: out, rewrites };
}

const sorted = (entry: Record<string, unknown>) => Object.fromEntries(Object.entries(entry).sort(([a], [b]) => (a < b ? -1 : 1)));
