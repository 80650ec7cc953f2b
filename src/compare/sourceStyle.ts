import type { FormatterReport } from '../outline/formatter.js';
import type { Outline, OutlineResult, Places } from '../outline/types.js';
import type { Finding } from './findings.js';
import { formattingFindings, syntaxFindings } from './formatting.js';
import { compareOutlineGolden } from './outline-golden.js';
import { compareStyle, type StyleSubject } from './style.js';

/** One provider this run outlined. */
export interface OutlinedProvider {
  provider: string;
  /** The source root as reports show it (`providers/gke`). */
  root: string;
  result: OutlineResult;
  formatter: FormatterReport;
  /** The committed outline golden's text, if there is one. */
  golden: string | undefined;
  /** Composed key → contract role, from this provider's skeletons. */
  keys: ReadonlyMap<string, string>;
}

export interface SourcesInput {
  outlined: OutlinedProvider[];
  /**
   * Providers the run did not outline (`drift diff -p P`): their outline goldens stand in for them;
   * `shown`, the places of their source on disk, says where their examples are (style.ts).
   */
  standIns: Array<{ provider: string; outline: Outline; keys: ReadonlyMap<string, string>; shown?: { root: string; places: Places } }>;
  /** Judge the stand-ins as the outlined providers are, and blame any of them: a full run's view. */
  everyone?: true;
}

/**
 * Everything drift says about the providers' code: syntax errors, the formatting rule, each outline
 * against its golden, and the style facets across providers. Pure; findings in provider order.
 */
export function judgeSources({ outlined, standIns, everyone }: SourcesInput): Finding[] {
  const ordered = [...outlined].sort((a, b) => (a.provider < b.provider ? -1 : 1));
  const findings = ordered.flatMap((p) => [
    ...syntaxFindings(p.provider, p.result, p.root),
    ...formattingFindings(p.formatter, p.root),
    ...compareOutlineGolden(p.provider, p.golden, p.result.outline),
  ]);
  const subjects: StyleSubject[] = [
    ...ordered.map((p) => ({ provider: p.provider, outline: p.result.outline, places: p.result.places, root: p.root, keys: p.keys })),
    ...standIns.map((s) => ({ provider: s.provider, outline: s.outline, places: new Map<string, string>(), root: s.provider, keys: s.keys, ...(s.shown ? { shown: s.shown } : {}) })),
  ];
  const established = standIns.length > 0 && !everyone ? { established: new Set(standIns.map((s) => s.provider)) } : {};
  const judged = new Set(ordered.map((p) => p.provider));
  // Stand-ins form conventions; only what this run outlined is blamed (splits blame nobody), unless
  // every provider is judged alike, as a full run would (what a newcomer does to the others).
  findings.push(...compareStyle({ subjects, ...established }).filter((finding) => everyone || finding.provider === undefined || judged.has(finding.provider)));
  return findings;
}
