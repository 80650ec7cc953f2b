import type { CachePolicy } from '../cache/policy.js';
import path from 'node:path';
import { compareGolden, type CommittedGolden } from '../compare/golden.js';
import type { Finding } from '../compare/findings.js';
import type { Skeleton } from '../skeleton/types.js';
import { cellOf, goldenFile, outlineFile, type GoldenEnvironment } from './environment.js';
import { normalizeGolden, parseGolden, serializeGolden } from './format.js';

/** Which cells a run answers for, so it can tell which goldens nothing produces any more. */
export interface GoldenScope {
  /** Every provider and scenario of the configuration: their goldens are produced. */
  providers: string[];
  scenarios: string[];
  /**
   * The --provider / --scenario filters of the run, when given: only goldens inside them can be
   * obsolete, so `--provider gke` never calls eks's goldens obsolete. An empty list of providers (a
   * `--changed` run that renders none) leaves none obsolete.
   */
  only?: { providers?: string[]; scenarios?: string[] };
}

export interface GoldenCounters {
  /** Cells whose golden equals their skeleton, and those whose does not (or who have none). */
  matched: number;
  unmatched: number;
  added: number;
  updated: number;
  unchanged: number;
  /** Cells `drift update` refused to write: they failed to render, or rendered non-deterministically. */
  notWritten: number;
  obsolete: number;
  removed: number;
}

export type GoldenChange = 'added' | 'updated' | 'unchanged';

export interface GoldenCell {
  provider: string;
  scenario: string;
  /** `<provider>/<scenario>.yaml`, relative to the goldens folder. */
  file: string;
}

/**
 * The goldens of one run (after Vitest's SnapshotState): what each cell's golden says, what this run
 * changed, and which goldens nothing produces. It reads and writes only through its environment and
 * knows no file format beyond the one parser and serializer (format.ts).
 *
 * `read` and `standIn` change nothing; the counters change only through `match`, `save`, `refuse`
 * and `prune`, which the run calls once it has every cell's result, in matrix order.
 */
export class GoldenState {
  readonly counters: GoldenCounters = { matched: 0, unmatched: 0, added: 0, updated: 0, unchanged: 0, notWritten: 0, obsolete: 0, removed: 0 };
  /** Outline goldens (`<provider>/outline.yaml`) this run wrote or found unchanged. */
  readonly outlines = { added: 0, updated: 0, unchanged: 0 };
  /** Files this run created, in the order it wrote them. */
  readonly additions: string[] = [];

  /**
   * `label` names the goldens folder in findings (relative to the project root, so reports are
   * the same on every machine).
   */
  constructor(
    readonly env: GoldenEnvironment,
    readonly scope: GoldenScope,
    readonly label = 'goldens',
    /** The run's cache policy: parsed goldens are kept under it (config/documentCache.ts). */
    readonly cache?: CachePolicy,
  ) {}

  /** The name findings use for a golden file: `goldens/gke/converge.yaml`. */
  name(file: string): string {
    return path.join(this.label, file);
  }

  /** A cell's golden text, line endings normalized; undefined when it has none. */
  read(provider: string, scenario: string): string | undefined {
    const text = this.env.read(goldenFile(provider, scenario));
    return text === undefined ? undefined : normalizeGolden(text);
  }

  private parser(provider: string, scenario: string): (text: string) => CommittedGolden {
    const name = this.name(goldenFile(provider, scenario));
    return (text) => parseGolden(text, name, this.cache);
  }

  /** The golden findings of one cell, counted as it is compared: matched when there are none. */
  match(skeleton: Skeleton): Finding[] {
    const { provider, scenario } = skeleton;
    const findings = compareGolden({ provider, scenario, golden: this.read(provider, scenario), skeleton, parse: this.parser(provider, scenario) });
    if (findings.length === 0) this.counters.matched += 1;
    else this.counters.unmatched += 1;
    return findings;
  }

  /** A committed golden as a stand-in for a provider the run did not render; undefined if it is not a current one. */
  standIn(provider: string, scenario: string): Skeleton | undefined {
    const text = this.read(provider, scenario);
    if (text === undefined) return undefined;
    const parsed = this.parser(provider, scenario)(text);
    return parsed.ok && !parsed.skeleton.error ? parsed.skeleton : undefined;
  }

  /** Writes a cell's golden unless it already says exactly that. */
  save(skeleton: Skeleton): GoldenChange {
    const before = this.read(skeleton.provider, skeleton.scenario);
    return this.writeUnlessSame(goldenFile(skeleton.provider, skeleton.scenario), before, serializeGolden(skeleton), this.counters);
  }

  /** A provider's outline golden text, line endings normalized; undefined when it has none. */
  readOutline(provider: string): string | undefined {
    const text = this.env.read(outlineFile(provider));
    return text === undefined ? undefined : normalizeGolden(text);
  }

  /** Writes a provider's outline golden (canonical text) unless it already says exactly that; counted apart from the cells'. */
  saveOutline(provider: string, text: string): GoldenChange {
    return this.writeUnlessSame(outlineFile(provider), this.readOutline(provider), text, this.outlines);
  }

  /** The one write path of both kinds of golden: nothing when the text is the same, else a write counted as added or updated. */
  private writeUnlessSame(file: string, before: string | undefined, text: string, counts: { added: number; updated: number; unchanged: number }): GoldenChange {
    if (before === text) {
      counts.unchanged += 1;
      return 'unchanged';
    }
    this.env.write(file, text);
    if (before === undefined) {
      counts.added += 1;
      this.additions.push(file);
      return 'added';
    }
    counts.updated += 1;
    return 'updated';
  }

  /** A cell `drift update` will not write. */
  refuse(): void {
    this.counters.notWritten += 1;
  }

  /** Goldens inside the run's scope that no provider × scenario of the configuration produces. */
  obsolete(): GoldenCell[] {
    const providers = new Set(this.scope.providers);
    const scenarios = new Set(this.scope.scenarios);
    const only = {
      providers: this.scope.only?.providers ? new Set(this.scope.only.providers) : undefined,
      scenarios: this.scope.only?.scenarios ? new Set(this.scope.only.scenarios) : undefined,
    };
    const found = this.env.list().flatMap((file) => {
      const cell = cellOf(file);
      if (!cell) return [];
      if (providers.has(cell.provider) && scenarios.has(cell.scenario)) return [];
      if (only.providers && !only.providers.has(cell.provider)) return [];
      if (only.scenarios && !only.scenarios.has(cell.scenario)) return [];
      return [{ ...cell, file }];
    });
    this.counters.obsolete = found.length;
    return found;
  }

  /** Removes the obsolete goldens and returns them. */
  prune(): GoldenCell[] {
    const obsolete = this.obsolete();
    for (const golden of obsolete) {
      this.env.remove(golden.file);
      this.counters.removed += 1;
    }
    return obsolete;
  }
}
