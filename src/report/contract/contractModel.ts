/**
 * What the generated contract says, gathered from what changes only when the team decides: the rules'
 * meta, the contract's roles, the locked conventions, the accepted divergences, the style conventions
 * of the committed outlines and the providers taken as worked examples. Nothing here comes from a
 * render, so an ordinary provider edit never makes the contract stale.
 */
import path from 'node:path';
import type { AcceptedEntry } from '../../compare/acceptance.js';
import type { LockedConvention } from '../../compare/locked.js';
import type { RuleMeta } from '../../compare/rules/types.js';
import type { StyleConvention } from '../../compare/style.js';
import { stableStringify } from '../../util/objects.js';

/** One bundled provider as a worked example: where its adapter, function and tests live. */
export interface ExampleProvider {
  name: string;
  xr: { apiVersion: string; kind: string };
  /** Paths relative to the project root, `/`-separated. */
  files: { adapter: string; function: string; readme?: string; tests?: string };
}

/** A contract role, what it is for, and the kinds of cloud resources drift infers it from. */
export interface ContractRole {
  role: string;
  meaning: string;
  kinds: readonly string[];
}

export interface ContractInput {
  rules: readonly RuleMeta[];
  roles: readonly ContractRole[];
  providers: readonly ExampleProvider[];
  accepted: readonly AcceptedEntry[];
  /** Conventions the team locked (goldens/conventions.yaml). */
  locked: readonly LockedConvention[];
  /** How every provider writes its code, from the committed outlines (empty when there are none). */
  style: readonly StyleConvention[];
  /** Where things are, relative to the project root, `/`-separated. */
  paths: { contractDir: string; accepted: string; conventions: string };
}

/** The skill's folder and name: the Agent Skills format wants them equal. */
export const SKILL_NAME = 'drift-add-provider';

/** The generated files, relative to the contract folder. */
export const CONTRACT_FILES = {
  markdown: 'CONTRACT.md',
  json: 'contract.json',
  skill: `skills/${SKILL_NAME}/SKILL.md`,
} as const;

/** A project-relative path as a link from a file in the contract folder (`from` is relative to that folder). */
export function linkFrom(input: ContractInput, from: string, target: string): string {
  const base = path.posix.dirname(path.posix.join(input.paths.contractDir, from));
  return path.posix.relative(base, target) || '.';
}

/** Accepted entries in a stable order: by provider list, facet, subject, scenario, then id. */
export function sortedAccepted(entries: readonly AcceptedEntry[]): AcceptedEntry[] {
  const key = (entry: AcceptedEntry) => [(entry.providers ?? []).join(','), entry.facet ?? '', entry.subject ?? '', entry.scenario ?? '', entry.id ?? ''].join('\u0000');
  return [...entries].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** What an accepted entry is about, in words: `facet \`writer\` of \`kubeconfig\` in credentials-missing`. */
export function acceptedSubject(entry: AcceptedEntry): string {
  if (entry.id !== undefined) return `finding \`${entry.id}\`${entry.scenario !== undefined ? ` in ${entry.scenario}` : ''}`;
  const parts = [`facet \`${entry.facet}\``];
  if (entry.subject !== undefined) parts.push(`of \`${entry.subject}\``);
  if (entry.scenario !== undefined) parts.push(`in ${entry.scenario}`);
  return parts.join(' ');
}

/** Locked conventions in a stable order: by subject, then facet. */
export function sortedLocked(locked: readonly LockedConvention[]): LockedConvention[] {
  const key = (convention: LockedConvention) => `${convention.subject}\u0000${convention.facet}`;
  return [...locked].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** A locked value in words: one canonical text when every scenario agrees, else each scenario's. */
export function lockedWords(convention: LockedConvention): string {
  const texts = Object.keys(convention.values)
    .sort()
    .map((scenario) => [scenario, stableStringify(convention.values[scenario])] as const);
  return new Set(texts.map(([, text]) => text)).size === 1 ? texts[0]![1] : texts.map(([scenario, text]) => `${scenario}: ${text}`).join('; ');
}
