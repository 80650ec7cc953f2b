import { COMPOSER_CLASS } from './composerClass.js';
import { CONSTANTS } from './constants.js';
import { DEFS } from './defs.js';
import { GATES } from './gatePlacement.js';
import { HELPERS } from './helpers.js';
import { IDIOM_FACETS } from './idioms.js';
import { LAYOUT } from './layout.js';
import { NAMES } from './naming.js';
import type { SourceFamily } from './subject.js';

/** Every family of source facets, each with its meta and extractor: what the style judge runs and the registry lists. */
export const SOURCE_FAMILIES: readonly SourceFamily[] = [NAMES, IDIOM_FACETS, LAYOUT, HELPERS, COMPOSER_CLASS, GATES, CONSTANTS, DEFS];
