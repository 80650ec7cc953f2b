/**
 * The style seeds planted into each idiom (test/fixtures/style-idioms): each idiom judged beside the
 * bundled five, whose shared conventions the seed departs from, and each seed found on the idiom at
 * its line (within three). A seed is written once, as an edit found by what the code does (the
 * constant holding the StorageClass's name, the function writing desired resources, the readiness
 * loop), so it plants into any idiom that has the thing it changes. Outlines only: no processes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { compareStyle, type StyleSubject } from '../../src/compare/style.js';
import { parserFor } from '../../src/outline/grammar.js';
import { buildOutline } from '../../src/outline/outline.js';
import { readSources } from '../../src/outline/read.js';
import type { Adapter } from '../../src/config/types.js';
import type { SourceText } from '../../src/outline/types.js';
import { bundledProviders, REPO } from '../helpers/project.js';

const IDIOMS = ['classy', 'hybrid', 'modular', 'reqparam', 'selfreq', 'stateful'] as const;
const BUNDLED = bundledProviders();
const DIR = path.join(REPO, 'test/fixtures/style-idioms');
const COMPOSER = 'function/composer.py';
/** The keys every idiom composes, with the roles their renders give them. */
const IDIOM_KEYS: ReadonlyMap<string, string> = new Map([
  ['network', 'network'],
  ['cluster', 'cluster'],
  ['nodepool-system', 'system-pool'],
  ['nodepool-gpu', 'node-pool'],
  ['provider-config-kubernetes', 'provider-config-kubernetes'],
  ['provider-config-helm', 'provider-config-helm'],
  ['storage-class-rwx', 'cache-storage-class'],
]);

/** A bundled provider's composed keys with their roles, from its goldens (every scenario). */
function goldenKeys(provider: string): Map<string, string> {
  const out = new Map<string, string>();
  const dir = path.join(REPO, 'goldens', provider);
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.yaml') && name !== 'outline.yaml').sort()) {
    const golden = parse(readFileSync(path.join(dir, file), 'utf8')) as { resources?: Record<string, { role?: string }> };
    for (const [key, resource] of Object.entries(golden.resources ?? {})) if (resource.role && !out.has(key)) out.set(key, resource.role);
  }
  return out;
}

interface Seed {
  facet: string;
  drift: string;
  /** The seeded files, or undefined where the idiom has nothing this seed changes (or already differs so). */
  plant: (files: Map<string, string>) => { files: Map<string, string>; at: { file: string; text: string } } | undefined;
}

const words = (name: string) => new RegExp(`\\b${name}\\b`, 'g');
const edited = (files: Map<string, string>, file: string, text: string) => new Map([...files, [file, text]]);
/** The def whose body holds line `index` (0-based) of `lines`: the nearest def above at a lower indent. */
function defAbove(lines: readonly string[], index: number): number {
  const indent = /^\s*/.exec(lines[index]!)![0].length;
  for (let at = index - 1; at >= 0; at--) if (/^\s*(?:async\s+)?def /.test(lines[at]!) && /^\s*/.exec(lines[at]!)![0].length < indent) return at;
  return -1;
}
/** Drops the one-line docstring right under the def at `at`; undefined when it has none. */
function withoutDocstring(text: string, at: number): string | undefined {
  const lines = text.split('\n');
  let body = at + 1;
  while (body < lines.length && !lines[body - 1]!.trimEnd().endsWith(':')) body++;
  if (!/^\s*"""[^"]*"""\s*$/.test(lines[body] ?? '')) return undefined;
  return [...lines.slice(0, body), ...lines.slice(body + 1)].join('\n');
}

const SEEDS: Seed[] = [
  {
    facet: 'naming-style',
    drift: 'a module constant in camelCase',
    plant: (files) => {
      const text = files.get(COMPOSER)!;
      const name = /^([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+) = /m.exec(text)?.[1];
      if (!name) return undefined;
      const camel = name.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
      return { files: edited(files, COMPOSER, text.replace(words(name), camel)), at: { file: COMPOSER, text: `${camel} = ` } };
    },
  },
  {
    facet: 'constant-name',
    drift: 'the StorageClass name constant with a cloud prefix',
    plant: (files) => {
      const text = files.get(COMPOSER)!;
      const name = /^([A-Z_]+) = "modelplane-rwx"/m.exec(text)?.[1];
      if (!name) return undefined;
      return { files: edited(files, COMPOSER, text.replace(words(name), `EXAMPLE_${name}`)), at: { file: COMPOSER, text: `EXAMPLE_${name} = ` } };
    },
  },
  {
    facet: 'idiom',
    drift: 'a composed resource written through its own update method',
    plant: (files) => {
      const text = files.get(COMPOSER)!;
      const write = /resource\.update\(([\w.]+\.desired\.resources\[\w+\]), (\w+)\)/.exec(text);
      if (!write) return undefined;
      const seeded = `${write[1]}.resource.update(${write[2]})`;
      return { files: edited(files, COMPOSER, text.replace(write[0], seeded)), at: { file: COMPOSER, text: seeded } };
    },
  },
  {
    facet: 'readiness-shape',
    drift: 'a special case on a literal key inside the readiness loop',
    plant: (files) => {
      const text = files.get(COMPOSER)!;
      const loop = /^( *)for key in sorted\(.*\):\n/m.exec(text);
      if (!loop || /key == "/.test(text)) return undefined;
      const inner = `${loop[1]}    `;
      const special = `${inner}if key == "network" and not key:\n${inner}    continue\n`;
      return { files: edited(files, COMPOSER, text.replace(loop[0], loop[0] + special)), at: { file: COMPOSER, text: `${inner}if key == "network"` } };
    },
  },
  {
    facet: 'layout',
    drift: 'a module the others do not have',
    plant: (files) => ({ files: new Map([...files, ['function/extra.py', '"""A module of its own."""\n']]), at: { file: 'function/extra.py', text: '"""A module' } }),
  },
  {
    facet: 'helper-presence',
    drift: 'a helper only this provider has, reading the observed resources',
    plant: (files) => {
      const text = files.get(COMPOSER)!;
      const helper = '\n\ndef count_observed(req: fnv1.RunFunctionRequest) -> int:\n    """How many composed resources Crossplane observed."""\n    return len(req.observed.resources)\n';
      return { files: edited(files, COMPOSER, text.trimEnd() + '\n' + helper), at: { file: COMPOSER, text: 'def count_observed(' } };
    },
  },
  {
    facet: 'annotations',
    drift: 'a bare dict in a signature',
    plant: (files) => {
      const text = files.get(COMPOSER)!;
      const line = /^\s*def .*\bdict\[str, Any\].*$/m.exec(text)?.[0];
      if (!line || /(?::|->)\s*dict\b(?!\[)/.test(text)) return undefined;
      const seeded = line.replace('dict[str, Any]', 'dict');
      return { files: edited(files, COMPOSER, text.replace(line, seeded)), at: { file: COMPOSER, text: seeded } };
    },
  },
  {
    facet: 'type-alias',
    drift: 'a type alias the others write out',
    plant: (files) => {
      const text = files.get(COMPOSER)!;
      const line = /^\s*def .*\bdict\[str, Any\].*$/m.exec(text)?.[0];
      const imports = /^from crossplane\.function\.proto\.v1 import run_function_pb2 as fnv1\n/m.exec(text);
      if (!line || !imports || !/^from typing import .*\bAny\b/m.test(text)) return undefined;
      const seeded = text.replace(line, line.replace('dict[str, Any]', 'Body')).replace(imports[0], `${imports[0]}\nBody = dict[str, Any]\n`);
      return { files: edited(files, COMPOSER, seeded), at: { file: COMPOSER, text: 'Body = ' } };
    },
  },
  {
    facet: 'helper-visibility',
    drift: 'the resource writer public where the others keep it private',
    plant: (files) => {
      const text = files.get(COMPOSER)!;
      const lines = text.split('\n');
      const write = lines.findIndex((line) => /resource\.update\([\w.]+\.desired\.resources\[\w+\]/.test(line));
      const def = write < 0 ? -1 : defAbove(lines, write);
      const name = def < 0 ? undefined : /def (_\w+)\(/.exec(lines[def]!)?.[1];
      if (!name) return undefined;
      const bare = name.replace(/^_+/, '');
      return { files: edited(files, COMPOSER, text.replace(words(name), bare)), at: { file: COMPOSER, text: lines[def]!.replace(name, bare) } };
    },
  },
  {
    facet: 'helper-docstring',
    drift: 'the resource writer without its docstring',
    plant: (files) => {
      const text = files.get(COMPOSER)!;
      const lines = text.split('\n');
      const write = lines.findIndex((line) => /resource\.update\([\w.]+\.desired\.resources\[\w+\]/.test(line));
      const def = write < 0 ? -1 : defAbove(lines, write);
      const seeded = def < 0 ? undefined : withoutDocstring(text, def);
      return seeded ? { files: edited(files, COMPOSER, seeded), at: { file: COMPOSER, text: lines[def]! } } : undefined;
    },
  },
];

const parser = await parserFor('.py');
async function sourcesOf(root: string): Promise<SourceText[]> {
  return readSources({ name: path.basename(root), file: path.join(root, 'provider.yaml'), source: { root, include: ['**/*.py'] } } as unknown as Adapter);
}

describe('the style seeds planted into each idiom, judged beside the bundled five', async () => {
  const bundled: StyleSubject[] = await Promise.all(
    BUNDLED.map(async (name) => {
      const root = path.join(REPO, 'providers', name);
      const { outline, places } = buildOutline(name, await sourcesOf(root), parser);
      return { provider: name, outline, places, root: `providers/${name}`, keys: goldenKeys(name) };
    }),
  );
  const judged = (idiom: string, files: ReadonlyMap<string, string>) => {
    const { outline, places } = buildOutline(idiom, [...files].map(([file, body]) => ({ path: file, text: body })), parser);
    return compareStyle({ subjects: [...bundled, { provider: idiom, outline, places, root: `test/fixtures/style-idioms/${idiom}`, keys: IDIOM_KEYS }] });
  };
  const planted: string[] = [];
  for (const idiom of IDIOMS) {
    const original = new Map((await sourcesOf(path.join(DIR, idiom))).map((source) => [source.path, source.text]));
    // An idiom that already departs from a facet's convention gets no seed of it: a second departure
    // is the same finding, at the first place.
    const before = new Set(judged(idiom, original).filter((finding) => finding.provider === idiom).map((finding) => finding.facet));
    for (const seed of SEEDS) {
      const result = before.has(seed.facet) ? undefined : seed.plant(original);
      if (!result) continue;
      planted.push(`${idiom} ${seed.facet}`);
      it(`${idiom}: ${seed.drift} (${seed.facet}) is found at its line`, () => {
        const text = result.files.get(result.at.file)!;
        const index = text.indexOf(result.at.text);
        expect(index, `${result.at.text} in ${idiom}/${result.at.file}`).toBeGreaterThanOrEqual(0);
        const line = text.slice(0, index).split('\n').length;
        const findings = judged(idiom, result.files);
        const near = findings.filter((finding) => finding.type === 'style' && finding.provider === idiom && finding.facet === seed.facet);
        const file = `test/fixtures/style-idioms/${idiom}/${result.at.file}`;
        const hit = near.find((finding) => {
          const match = /^(.*):(\d+)$/.exec(finding.where?.[0] ?? '');
          return match?.[1] === file && Math.abs(Number(match[2]) - line) <= 3;
        });
        expect(hit, `${file}:${line}: ${near.map((finding) => finding.where?.[0]).join(', ') || 'no such finding'}`).toBeDefined();
      });
    }
  }
  it('plants every seed into at least two idioms', () => {
    for (const seed of SEEDS) expect(planted.filter((entry) => entry.endsWith(` ${seed.facet}`)).length, seed.facet).toBeGreaterThanOrEqual(2);
  });
});
