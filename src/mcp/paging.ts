/**
 * Bounded answers: every list a tool returns is cut into pages of at most `limit` items and about
 * PAGE_BYTES of JSON, and the rest is reached with the `next` token. Pages come from one computed
 * answer kept in memory, so paging never re-renders and nothing is lost or repeated between pages.
 */
import { createHash } from 'node:crypto';
import { DriftError } from '../errors.js';

/**
 * What one page's items may weigh as JSON. An answer carries its data twice, as structured content
 * and as the JSON text older clients read, so a page of 8.5 KB keeps every answer under 20 KB.
 */
export const PAGE_BYTES = 8_500;
export const DEFAULT_LIMIT = 50;
const KEPT_ANSWERS = 16;

/** A computed answer: its list, and what the answer says beside it (a summary), the same on every page. */
export interface Answer<T> {
  items: readonly T[];
  about: Record<string, unknown>;
}

export interface Page<T> {
  total: number;
  items: T[];
  /** Pass as `next` with the same arguments for the following page; absent on the last page. */
  next?: string;
}

/** The answers pages are read from, newest last; the oldest go first. */
export class Answers {
  private readonly kept = new Map<string, Answer<unknown>>();

  /** The answer a `next` token points into, or undefined when the token is not this server's. */
  recall(token: string | undefined, query: string): { answer: Answer<unknown>; offset: number } | undefined {
    if (token === undefined) return undefined;
    const [key, offset] = token.split('.');
    const answer = key === undefined ? undefined : this.kept.get(key);
    if (!answer || key !== keyOf(query) || !/^\d+$/.test(offset ?? '')) {
      throw new DriftError(`next ${JSON.stringify(token)} is not a page of this question (or the server no longer holds it): call the tool again without next, with the same arguments`);
    }
    return { answer, offset: Number(offset) };
  }

  /** The page of the answer's items at `offset`, with what it says beside them and a token for the page after. */
  page<T>(query: string, answer: Answer<T>, offset: number, limit = DEFAULT_LIMIT): Page<T> & Record<string, unknown> {
    const key = keyOf(query);
    const { items } = answer;
    this.kept.delete(key);
    this.kept.set(key, answer as Answer<unknown>);
    while (this.kept.size > KEPT_ANSWERS) this.kept.delete(this.kept.keys().next().value!);
    const out: T[] = [];
    let bytes = 0;
    for (let i = offset; i < items.length && out.length < limit; i++) {
      const size = Buffer.byteLength(JSON.stringify(items[i]));
      // One item always goes, so a page never stalls on an item heavier than a page.
      if (out.length > 0 && bytes + size > PAGE_BYTES) break;
      out.push(items[i]!);
      bytes += size;
    }
    const end = offset + out.length;
    return { ...answer.about, total: items.length, items: out, ...(end < items.length ? { next: `${key}.${end}` } : {}) };
  }
}

/** The question's arguments but `limit` and `next`, as a short stable key. */
const keyOf = (query: string): string => createHash('sha256').update(query).digest('hex').slice(0, 16);
