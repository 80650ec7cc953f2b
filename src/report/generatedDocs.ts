import { RULE_METAS } from '../compare/rules/index.js';
import { FACETS } from '../facets/registry.js';
import { facetsMarkdown } from './facetsText.js';
import { RULES_BEGIN, RULES_END, rulesMarkdownList } from './rulesText.js';

/**
 * A part of a documentation page written from meta (the rules', the facets'), between two marker
 * lines, so the prose around it stays hand-written and the list can never fall behind the code.
 */
export interface GeneratedBlock {
  begin: string;
  end: string;
  /** The block's text, ending in a newline. */
  text: string;
}

/** A page with generated blocks in hand-written prose, or a page written whole from meta. */
export type GeneratedPage =
  | {
      /** Relative to the repository. */
      file: string;
      blocks: readonly GeneratedBlock[];
    }
  | { file: string; whole: string };

/**
 * Every generated page: `npm run docs` (scripts/docs-generate.mjs) rewrites them and a unit test
 * checks they are current. A new page is one more entry here.
 */
export function generatedPages(): GeneratedPage[] {
  return [
    { file: 'docs/rules.md', blocks: [{ begin: RULES_BEGIN, end: RULES_END, text: rulesMarkdownList(RULE_METAS) }] },
    { file: 'docs/facets.md', whole: facetsMarkdown(FACETS) },
  ];
}

/**
 * The page's text with each block rewritten between its markers (a whole page: its text). A block
 * whose markers are missing or out of order is returned instead, so a caller can say where to put
 * them rather than guess.
 */
export function regenerate(page: GeneratedPage, text: string): { text: string } | { missing: GeneratedBlock } {
  if ('whole' in page) return { text: page.whole };
  let result = text;
  for (const block of page.blocks) {
    const begin = result.indexOf(block.begin);
    const end = result.indexOf(block.end, begin + 1);
    if (begin < 0 || end < begin) return { missing: block };
    result = `${result.slice(0, begin + block.begin.length)}\n${block.text}${result.slice(end)}`;
  }
  return { text: result };
}
