/**
 * Edits one top-level list of a YAML file's text without touching any other byte: the comments,
 * quoting and flow lists people wrote stay exactly as they were, so the diff a reviewer sees is the
 * one entry added or removed. Each result is parsed again before it is returned: text that would not
 * read back as the old list with exactly that change is refused, never written.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Node, YAMLMap } from 'yaml';
import { yamlLibrary } from '../util/yamlLibrary.js';

/** Why a list could not be edited in place; the caller names the file and what to do by hand. */
export class ListEditError extends Error {}

/** The item as block YAML lines, quoted as the yaml library sees fit. */
function block(item: object, indent: string): string {
  const { stringify } = yamlLibrary();
  const lines = stringify(item, { lineWidth: 0 }).replace(/\n$/, '').split('\n');
  return `${lines.map((line, index) => `${indent}${index === 0 ? '- ' : '  '}${line}`).join('\n')}\n`;
}

/** Where the line holding `offset` ends (after its newline), or the end of the text. */
function endOfLine(text: string, offset: number): number {
  const newline = text.indexOf('\n', Math.max(0, offset));
  return newline < 0 ? text.length : newline + 1;
}

const startOfLine = (text: string, offset: number) => text.lastIndexOf('\n', offset - 1) + 1;

function appended(text: string, key: string, item: object): string {
  const { isMap, isScalar, isSeq, parseDocument } = yamlLibrary();
  const document = parseDocument(text);
  const list = document.get(key, true) as Node | undefined;
  if (isSeq(list) && list.range) {
    const [start, end] = list.range;
    if (list.flow) {
      if (list.items.length === 0) {
        // `key: []` becomes a block list: the only bytes that change are the `[]`.
        return `${text.slice(0, start).replace(/[ \t]+$/, '')}\n${block(item, '  ').replace(/\n$/, '')}${text.slice(end)}`;
      }
      const close = text.lastIndexOf(']', end);
      return `${text.slice(0, close)}, ${JSON.stringify(item)}${text.slice(close)}`;
    }
    // A block list: the new item goes after the last one's line, with the same indent as the others.
    const indent = text.slice(startOfLine(text, start), start);
    const last = list.items.at(-1) as Node | undefined;
    const at = endOfLine(text, (last?.range?.[1] ?? end) - 1);
    const before = text.slice(0, at);
    return `${before}${before.endsWith('\n') ? '' : '\n'}${block(item, /^[ \t]*$/.test(indent) ? indent : '  ')}${text.slice(at)}`;
  }
  if (isMap(document.contents) && document.contents.has(key) && isScalar(list) && (list.value === null || list.value === undefined)) {
    // `key:` with nothing after it.
    const at = endOfLine(text, list.range?.[0] ?? text.length);
    const before = text.slice(0, at);
    return `${before}${before.endsWith('\n') ? '' : '\n'}${block(item, '  ')}${text.slice(at)}`;
  }
  if (document.contents === null || (isMap(document.contents) && !document.contents.has(key))) {
    return `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${key}:\n${block(item, '  ')}`;
  }
  throw new ListEditError(`its top level is not a mapping with a \`${key}\` list`);
}

function removed(text: string, key: string, index: number): string {
  const { isSeq, parseDocument } = yamlLibrary();
  const list = parseDocument(text).get(key, true) as Node | undefined;
  if (!isSeq(list) || !list.range) throw new ListEditError(`it has no \`${key}\` list`);
  const items = list.items as Node[];
  const item = items[index];
  if (!item?.range) throw new ListEditError(`its \`${key}\` list has no item ${index + 1}`);
  if (list.flow) {
    if (items.length === 1) return `${text.slice(0, list.range[0])}[]${text.slice(list.range[1])}`;
    // The item and the separator after it (the one before it, for the last item).
    const next = items[index + 1];
    if (next?.range) return `${text.slice(0, item.range[0])}${text.slice(next.range[0])}`;
    const previous = items[index - 1]!;
    return `${text.slice(0, previous.range![1])}${text.slice(item.range[1])}`;
  }
  // A block item: its lines, from the one holding its `- ` to the end of its last line.
  const from = startOfLine(text, item.range[0]);
  const to = endOfLine(text, item.range[1] - 1);
  const rest = `${text.slice(0, from)}${text.slice(to)}`;
  // The last item gone, `key:` alone would read as null: an empty flow list keeps the file valid.
  return items.length === 1 ? rest.replace(new RegExp(`^(${key}):[ \\t]*$`, 'm'), '$1: []') : rest;
}

function listOf(text: string, key: string): unknown[] {
  const { parse } = yamlLibrary();
  return ((parse(text) as Record<string, unknown> | null)?.[key] ?? []) as unknown[];
}

/** `text` with `item` appended to its top-level `key` list; undefined text is a file yet to be created. */
export function appendListItem(text: string | undefined, key: string, item: object): string {
  const before = text ?? '';
  const after = appended(before, key, item);
  if (!isDeepStrictEqual(listOf(after, key), [...listOf(before, key), JSON.parse(JSON.stringify(item))])) throw new ListEditError('the result would not read back as the old entries plus the new one');
  return after;
}

/** `text` without item `index` of its top-level `key` list. */
export function removeListItem(text: string, key: string, index: number): string {
  const after = removed(text, key, index);
  const expected = listOf(text, key).filter((_, at) => at !== index);
  if (!isDeepStrictEqual(listOf(after, key), expected)) throw new ListEditError('the result would not read back as the old entries less that one');
  return after;
}

/**
 * A list item rewritten from `base` (the item as the file has it, so its scalars keep their quoting)
 * with `item`'s fields: fields `item` lacks are dropped, new ones go before `last` (e.g. the reason)
 * and are written with every list or mapping inside them in flow style (`[eks, vultr]`).
 */
function rewrittenItem(base: YAMLMap, item: Record<string, unknown>, last: string, indent: string): string {
  const { Document, isScalar, visit } = yamlLibrary();
  const document = new Document();
  const node = base.clone() as YAMLMap;
  // A comment above the item stays where it is, outside the lines rewritten.
  delete node.commentBefore;
  const lastPair = node.items.find((pair) => isScalar(pair.key) && pair.key.value === last);
  node.items = node.items.filter((pair) => {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    return key !== undefined && key in item && key !== last;
  });
  for (const [key, value] of Object.entries(item)) {
    if (key === last) continue;
    const kept = node.items.find((pair) => isScalar(pair.key) && pair.key.value === key);
    if (kept && isDeepStrictEqual(JSON.parse(JSON.stringify((kept.value as Node | null)?.toJSON?.() ?? kept.value ?? null)), JSON.parse(JSON.stringify(value ?? null)))) continue;
    const created = document.createNode(value) as Node;
    visit(created, { Seq: (_, seq, path) => void (path.length > 2 && (seq.flow = true)), Map: (_, map, path) => void (path.length > 2 && (map.flow = true)) });
    if (kept) kept.value = created;
    else node.items.push(document.createPair(key, created));
  }
  if (last in item) node.items.push(lastPair && isDeepStrictEqual(lastPair.value && (lastPair.value as Node).toJSON(), item[last]) ? lastPair : document.createPair(last, item[last]));
  document.contents = node;
  const lines = document.toString({ lineWidth: 0, flowCollectionPadding: false }).replace(/\n$/, '').split('\n');
  return `${lines.map((line, index) => `${indent}${index === 0 ? '- ' : '  '}${line}`).join('\n')}\n`;
}

/**
 * `text` with items of its top-level block `key` list replaced (index → new items; more than one
 * splits it), each written from the item the file has, every other byte kept: comments between items
 * stay, and so does the quoting of the fields that do not change.
 */
export function replaceListItems(text: string, key: string, replacements: ReadonlyMap<number, readonly object[]>, last: string): string {
  const { isMap, isSeq, parseDocument } = yamlLibrary();
  const list = parseDocument(text).get(key, true) as Node | undefined;
  if (!isSeq(list) || list.flow) throw new ListEditError(`it has no block \`${key}\` list`);
  const items = list.items as Node[];
  // The file's own line ending for what is written (a CRLF file stays CRLF).
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  // In file order, each item's lines cut out and the new ones put in their place: one pass over the
  // text, so replacing thousands of entries stays linear.
  const parts: string[] = [];
  let done = 0;
  for (const index of [...replacements.keys()].sort((a, b) => a - b)) {
    const item = items[index];
    if (!isMap(item) || !item.range) throw new ListEditError(`its \`${key}\` list has no mapping at item ${index + 1}`);
    const from = startOfLine(text, item.range[0]);
    const indent = text.slice(from, item.range[0]).replace(/-\s*$/, '');
    const to = endOfLine(text, item.range[1] - 1);
    const written = replacements.get(index)!.map((replacement) => rewrittenItem(item, replacement as Record<string, unknown>, last, indent));
    parts.push(text.slice(done, from), eol === '\n' ? written.join('') : written.join('').replaceAll('\n', eol));
    done = to;
  }
  parts.push(text.slice(done));
  const out = parts.join('');
  const expected = listOf(text, key).flatMap((entry, index) => (replacements.has(index) ? JSON.parse(JSON.stringify(replacements.get(index))) : [entry]));
  if (!isDeepStrictEqual(listOf(out, key), expected)) throw new ListEditError('the result would not read back as the old entries with those replaced');
  return out;
}
