/**
 * Appends one entry to the text of goldens/accepted.yaml without touching any other byte: the
 * comments, quoting and flow lists people wrote (`providers: [eks]`) stay exactly as they were,
 * so the diff a reviewer sees is the new entry alone (listText.ts). Text that would not read back
 * as the old entries plus the new one is never written.
 */
import { DriftError } from '../errors.js';
import { appendListItem, replaceListItems } from './listText.js';

/** An entry as `drift accept` writes it: an id (maybe kept to one scenario), or a split's pinned ways; its fields in this order. */
export type NewEntry = { id: string; scenario?: string; reason: string } | { facet: string; subject: string; scenario?: string; ways: object[]; reason: string };

/** `text` with `entry` appended to its `accepted` list; undefined text is a file yet to be created. */
export function appendAcceptedEntry(text: string | undefined, entry: NewEntry, file: string): string {
  try {
    return appendListItem(text, 'accepted', { ...entry });
  } catch (error) {
    const rewrites = /read back/.test((error as Error).message);
    throw new DriftError(
      rewrites
        ? `cannot append to ${file} without rewriting what is there; add the entry by hand: ${JSON.stringify(entry)}`
        : `cannot append to ${file}: ${(error as Error).message}; add the entry by hand: ${JSON.stringify(entry)}`,
    );
  }
}

/** `text` with entries replaced (index → its new entries), every other byte kept; refused when it would not read back. */
export function replaceAcceptedEntries(text: string, replacements: ReadonlyMap<number, readonly object[]>, file: string): string {
  try {
    return replaceListItems(text, 'accepted', replacements, 'reason');
  } catch (error) {
    throw new DriftError(`cannot rewrite ${file} in place: ${(error as Error).message}. Nothing changed.`);
  }
}
