import { createHash } from 'node:crypto';
import path from 'node:path';
import { readJsonEntry, writeEntry } from '../cache/entry.js';
import type { Adapter, Scenario } from '../config/types.js';
import type { CellOptions, CellResult } from './cell.js';
import { buildStamp } from '../config/documentCache.js';
import { rememberCanonicalYaml, toCanonicalYaml } from '../skeleton/canonical.js';

/**
 * A provider's analysed cells kept between runs, beside its answers: replaying cached answers still
 * simulated every step, replay, ablation and probe, which cost most of an unchanged re-run. A cell is
 * what the answers make of its scenario under drift's own code, so the key is the provider's answer
 * key (answerKey.ts: the function's source tree, its Python environment, the adapter, drift's version),
 * drift's build (its source hash: the simulator, skeletonizer and probes are drift's code), the adapter
 * as loaded (its XRD included), then per entry the scenario as loaded and the cell's options, paths
 * relative to the project's root so two checkouts of one tree share entries.
 *
 * Only cells with no finding of their own are kept, and only when every cell of the provider replayed
 * its settled steps and agreed (run.ts decides), so a hit carries that verdict, as an answer does.
 * One file per provider key, `cells/<provider>-<key>.json`, written by the cache's one writer (cache/entry.ts).
 */

const FORMAT = 'drift-cells/2';
/** A cell without its wall time, and its skeleton as canonical YAML: a warm run compares it with its golden without writing YAML. */
interface Stored {
  cell: Omit<CellResult, 'ms'>;
  canonical: string;
}

/** The loaded object as JSON, paths under `base` made relative, so two checkouts of one tree share a key. */
export function portable(value: unknown, base: string): string {
  const prefix = `${base}${path.sep}`;
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'string' && (item === base || item.startsWith(prefix)) ? path.relative(base, item) || '.' : item));
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

export class ProviderCells {
  private readonly fresh = new Map<string, Stored>();

  private constructor(
    private readonly file: string,
    private readonly known: Map<string, Stored>,
    private readonly base: string,
    private readonly options: string,
  ) {}

  /**
   * The provider's cached cells under its answer key (`providerKey`), for cells analysed with `options`;
   * the adapter's and scenarios' paths enter the key relative to the project's `root`.
   */
  static open(folder: string, adapter: Adapter, providerKey: string, options: CellOptions, root: string): ProviderCells {
    const key = sha([FORMAT, providerKey, `build ${buildStamp()}`, `adapter ${portable(adapter, root)}`].join('\n'));
    const file = path.join(folder, 'cells', `${adapter.name.replace(/[^A-Za-z0-9_.-]/g, '_')}-${key.slice(0, 32)}.json`);
    return new ProviderCells(file, readEntries(file), root, JSON.stringify(options));
  }

  private key(scenario: Scenario): string {
    return sha(`${this.options}\n${portable(scenario, this.base)}`);
  }

  /** The cell an earlier run analysed from exactly this scenario; its wall time is not kept. */
  get(scenario: Scenario): CellResult | undefined {
    const stored = this.known.get(this.key(scenario));
    if (!stored) return undefined;
    rememberCanonicalYaml(stored.cell.skeleton, stored.canonical);
    return { ...stored.cell, ms: 0 };
  }

  add(scenario: Scenario, cell: CellResult): void {
    const { ms: _ms, ...stored } = cell;
    const key = this.key(scenario);
    if (!this.known.has(key)) this.fresh.set(key, { cell: stored, canonical: toCanonicalYaml(cell.skeleton) });
  }

  /** Writes the file when there is anything new; a failure to write only loses the entries. */
  save(): void {
    if (this.fresh.size === 0) return;
    const entries = new Map([...this.known, ...this.fresh]);
    const sorted = Object.fromEntries([...entries.keys()].sort().map((key) => [key, entries.get(key)]));
    // Not kept when it cannot be written: the next run analyses the cells again.
    writeEntry(this.file, JSON.stringify({ format: FORMAT, cells: sorted }));
    this.fresh.clear();
  }
}

/** The file's cells; none when it is missing, unreadable or of another format. */
function readEntries(file: string): Map<string, Stored> {
  const data = readJsonEntry<{ cells: Record<string, Stored> }>(file, (value) => value.format === FORMAT && typeof value.cells === 'object' && value.cells !== null);
  return new Map(data ? Object.entries(data.cells) : []);
}

