import { createHash } from 'node:crypto';
import path from 'node:path';
import type { RunFunctionResponse } from '@crossplane-org/function-sdk-typescript';
import { readEntry, writeEntry } from '../cache/entry.js';
import type { Adapter } from '../config/types.js';
import { decodeResponse, readAnswers } from './wireResponse.js';

/**
 * The persistent answer cache: a provider's RunFunction answers kept between runs, keyed by what
 * they depend on (answerKey.ts: the function's source tree, its Python environment, the adapter,
 * drift's version) and by each request's wire bytes. An unchanged provider is answered from it and
 * its function never starts. Only answers of cells whose determinism replays agreed are written
 * (run.ts decides), so a hit carries that verdict; replaying a hit asks the cache again.
 *
 * One file per provider key, `<provider>-<key>.answers`: a header, then records of the request's
 * SHA-256 (32 bytes), the answer's length (4 bytes, big-endian) and the answer's protobuf bytes.
 * Written whole by the cache's one writer (cache/entry.ts), pruned by its one pruner (cache/prune.ts).
 */

const MAGIC = Buffer.from('drift-answers-1\n');
const HASH_BYTES = 32;
export function requestHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** One provider's entries: those read from disk answer requests; new ones are written by `save`. */
export class ProviderAnswers {
  private readonly fresh = new Map<string, Uint8Array>();
  private readonly read = readAnswers();

  private constructor(
    private readonly file: string,
    private readonly known: Map<string, Uint8Array>,
  ) {}

  /** Opens the provider's entries under its key; undefined when the provider cannot be keyed (see answerKey.ts). */
  static open(folder: string, adapter: Adapter, key: string | undefined): ProviderAnswers | undefined {
    if (key === undefined) return undefined;
    const file = path.join(folder, `${safeName(adapter.name)}-${key.slice(0, 32)}.answers`);
    return new ProviderAnswers(file, readEntries(file));
  }

  get size(): number {
    return this.known.size;
  }

  /** The answer a previous run wrote for exactly these request bytes. */
  get(bytes: Uint8Array): RunFunctionResponse | undefined {
    const answer = this.known.get(requestHash(bytes));
    return answer ? decodeResponse(answer, this.read) : undefined;
  }

  /** Keeps an answer to write; `save` writes them beside the entries already there. */
  add(hash: string, answer: Uint8Array): void {
    if (!this.known.has(hash)) this.fresh.set(hash, answer);
  }

  /** Writes the file when there is anything new; a failure to write only loses the entries. */
  save(): void {
    if (this.fresh.size === 0) return;
    const entries = new Map([...readEntries(this.file), ...this.known, ...this.fresh]);
    const chunks: Uint8Array[] = [MAGIC];
    for (const hash of [...entries.keys()].sort()) {
      const answer = entries.get(hash)!;
      const head = Buffer.alloc(HASH_BYTES + 4);
      head.write(hash, 0, 'hex');
      head.writeUInt32BE(answer.length, HASH_BYTES);
      chunks.push(head, answer);
    }
    // A cache that cannot be written costs the next run its hits, nothing more.
    writeEntry(this.file, Buffer.concat(chunks));
    this.fresh.clear();
  }
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]/g, '_');
}

/** The file's entries; none when it is missing, unreadable or not one of drift's. */
function readEntries(file: string): Map<string, Uint8Array> {
  const entries = new Map<string, Uint8Array>();
  const data = readEntry(file);
  if (data === undefined) return entries;
  if (!data.subarray(0, MAGIC.length).equals(MAGIC)) return entries;
  let at = MAGIC.length;
  while (at + HASH_BYTES + 4 <= data.length) {
    const hash = data.toString('hex', at, at + HASH_BYTES);
    const length = data.readUInt32BE(at + HASH_BYTES);
    const start = at + HASH_BYTES + 4;
    if (start + length > data.length) return new Map(); // cut short: trust none of it
    entries.set(hash, data.subarray(start, start + length));
    at = start + length;
  }
  return entries;
}

