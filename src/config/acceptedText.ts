/**
 * Appends one entry to the text of goldens/accepted.yaml without touching any other byte: the
 * comments, quoting and flow lists people wrote (`providers: [eks]`) stay exactly as they were,
 * so the diff a reviewer sees is the new entry alone. Re-parsed before it is returned: text that
 * would not read back as the old entries plus the new one is never written.
 */
import { isDeepStrictEqual } from 'node:util';
import { isMap, isScalar, isSeq, parse, parseDocument, stringify, type Node } from 'yaml';
import { DriftError } from '../errors.js';

export interface NewEntry {
  id: string;
  reason: string;
}

/** The entry as block YAML lines, quoted as the yaml library sees fit. */
function entryLines(entry: NewEntry): string[] {
  return stringify({ id: entry.id, reason: entry.reason }, { lineWidth: 0 }).replace(/\n$/, '').split('\n');
}

function block(entry: NewEntry, indent: string): string {
  return `${entryLines(entry)
    .map((line, index) => `${indent}${index === 0 ? '- ' : '  '}${line}`)
    .join('\n')}\n`;
}

/** Where the line holding `offset` ends (after its newline), or the end of the text. */
function endOfLine(text: string, offset: number): number {
  const newline = text.indexOf('\n', Math.max(0, offset));
  return newline < 0 ? text.length : newline + 1;
}

function spliced(text: string, entry: NewEntry): string {
  const document = parseDocument(text);
  const list = document.get('accepted', true) as Node | undefined;
  if (isSeq(list) && list.range) {
    const [start, end] = list.range;
    if (list.flow) {
      if (list.items.length === 0) {
        // `accepted: []` becomes a block list: the only bytes that change are the `[]`.
        return `${text.slice(0, start).replace(/[ \t]+$/, '')}\n${block(entry, '  ').replace(/\n$/, '')}${text.slice(end)}`;
      }
      const close = text.lastIndexOf(']', end);
      return `${text.slice(0, close)}, ${JSON.stringify({ id: entry.id, reason: entry.reason })}${text.slice(close)}`;
    }
    // A block list: the new item goes after the last one's line, with the same indent as the others.
    const lineStart = text.lastIndexOf('\n', start - 1) + 1;
    const indent = text.slice(lineStart, start);
    const last = list.items.at(-1) as Node | undefined;
    const at = endOfLine(text, (last?.range?.[1] ?? end) - 1);
    const before = text.slice(0, at);
    return `${before}${before.endsWith('\n') ? '' : '\n'}${block(entry, /^[ \t]*$/.test(indent) ? indent : '  ')}${text.slice(at)}`;
  }
  if (isMap(document.contents) && document.contents.has('accepted') && isScalar(list) && (list.value === null || list.value === undefined)) {
    // `accepted:` with nothing after it.
    const at = endOfLine(text, list.range?.[0] ?? text.length);
    const before = text.slice(0, at);
    return `${before}${before.endsWith('\n') ? '' : '\n'}${block(entry, '  ')}${text.slice(at)}`;
  }
  if (document.contents === null || (isMap(document.contents) && !document.contents.has('accepted'))) {
    return `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}accepted:\n${block(entry, '  ')}`;
  }
  throw new DriftError('its top level is not a mapping with an `accepted` list');
}

/** `text` with `entry` appended to its `accepted` list; undefined text is a file yet to be created. */
export function appendAcceptedEntry(text: string | undefined, entry: NewEntry, file: string): string {
  const before = text ?? '';
  let after: string;
  try {
    after = spliced(before, entry);
  } catch (error) {
    throw new DriftError(`cannot append to ${file}: ${(error as Error).message}; add the entry by hand: ${JSON.stringify(entry)}`);
  }
  const old = ((parse(before) as { accepted?: unknown[] } | null)?.accepted ?? []) as unknown[];
  const now = (parse(after) as { accepted?: unknown[] } | null)?.accepted;
  if (!isDeepStrictEqual(now, [...old, { id: entry.id, reason: entry.reason }])) {
    throw new DriftError(`cannot append to ${file} without rewriting what is there; add the entry by hand: ${JSON.stringify(entry)}`);
  }
  return after;
}
