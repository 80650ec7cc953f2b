/** Outlines of the style fixtures (test/fixtures/style/<name>), built as drift builds them: no processes. */
import path from 'node:path';
import type { StyleSubject } from '../../src/compare/style.js';
import type { Adapter } from '../../src/config/types.js';
import { outlineAdapter } from '../../src/outline/read.js';
import type { OutlineResult } from '../../src/outline/types.js';
import { REPO } from './project.js';

export const STYLE = path.join(REPO, 'test/fixtures/style');

/** The three fixture providers written in one idiom, on three made-up clouds. */
export const HOUSE = ['alpha', 'beta', 'gamma'] as const;

/** The keys every fixture composes and the contract roles they play (a skeleton would say the same). */
export const FIXTURE_KEYS: ReadonlyMap<string, string> = new Map([
  ['network', 'network'],
  ['cluster', 'cluster'],
  ['nodepool-system', 'system-pool'],
  ['nodepool-gpu', 'node-pool'],
  ['provider-config-kubernetes', 'provider-config-kubernetes'],
]);

/** Only what outlining reads of an adapter. */
export function fixtureAdapter(name: string, include = ['**/*.py']): Adapter {
  const root = path.join(STYLE, name);
  return { name, file: path.join(root, 'provider.yaml'), source: { root, include } } as unknown as Adapter;
}

export async function fixtureOutline(name: string): Promise<OutlineResult> {
  const result = await outlineAdapter(fixtureAdapter(name));
  if (!result) throw new Error(`test/fixtures/style/${name} has no Python files`);
  return result;
}

export async function fixtureSubjects(names: readonly string[]): Promise<StyleSubject[]> {
  return Promise.all(
    names.map(async (name) => {
      const { outline, places } = await fixtureOutline(name);
      return { provider: name, outline, places, root: `test/fixtures/style/${name}`, keys: FIXTURE_KEYS };
    }),
  );
}
