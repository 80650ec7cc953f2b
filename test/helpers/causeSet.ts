/**
 * A project with about thirty causes, for the report's length (test/cli/report-length.test.ts, and the
 * measurements of issue 38): every style seed of the style seed suite and two behavioral seeds of the
 * mutation suite per bundled provider, planted at once into a copy of the project, formatted in the house
 * style. Its goldens are then written from the seeded functions (`drift update`), so what `drift diff`
 * reports is what the providers do against each other and the contract, never a golden diff.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { applyEdit } from './fourth.js';
import { SEEDS, type MutationSeed } from './mutationSeeds.js';
import { copyProject, type ProjectCopy } from './project.js';
import { applyStyleSeeds, STYLE_SEEDS } from './style.js';

/** The behavioral seeds planted beside the style seeds: two per provider whose edits do not touch each other's. */
export const BEHAVIORAL = [
  'GPU label dropped',
  'a credential made unusable drops consumers (the node pools)',
  'key prefix renamed: user pools keyed node-pool-<pool>',
  'status.cache missing',
  'a status field added',
  'consumers dropped on credential loss (the network needs the ProviderConfig)',
  'helm ProviderConfig dropped',
  'early ready: the cluster marked ready when composed',
  'Delete on an in-cluster Release',
  'missing providerConfigRef (on the node pools)',
] as const;

export function behavioralSeeds(): MutationSeed[] {
  return BEHAVIORAL.map((drift) => {
    const seed = SEEDS.find((one) => one.drift === drift);
    if (!seed) throw new Error(`no mutation seed "${drift}": update test/helpers/causeSet.ts with test/helpers/mutationSeeds.ts`);
    return seed;
  });
}

/** The copy with every seed planted (goldens still those of the bundled functions). */
export function seededWithCauses(): ProjectCopy {
  const copy = copyProject({ prefix: 'drift-causes-set-' });
  try {
    // Behavioral seeds first: their edits target the bundled text, which the style seeds' do not touch.
    for (const seed of behavioralSeeds()) {
      const file = path.join(copy.dir, 'providers', seed.provider, 'function', 'composer.py');
      let text = readFileSync(file, 'utf8');
      for (const edit of seed.composer) text = applyEdit(text, edit, `providers/${seed.provider}/function/composer.py (${seed.drift})`);
      writeFileSync(file, text);
    }
    // Formats every file it touches in the house style, the behavioral seeds' composer.py included.
    applyStyleSeeds(copy.dir, STYLE_SEEDS);
    return copy;
  } catch (error) {
    copy.remove();
    throw error;
  }
}
