import type { RuleMeta } from '../compare/rules/types.js';

/** `drift rules`: each rule's id, what it demands, why, and when it looks. */
export function rulesText(rules: readonly RuleMeta[]): string {
  const blocks = rules.map((rule) => [rule.id, `  ${rule.description}`, `  why: ${rule.rationale}`, `  applies: ${rule.appliesWhen}`].join('\n'));
  return `${blocks.join('\n\n')}\n`;
}

/** The README's rule list: one bullet a rule, what it demands and why. */
export function rulesMarkdownList(rules: readonly RuleMeta[]): string {
  return `${rules.map((rule) => `- \`${rule.id}\` (${rule.class}): ${rule.description} *Why:* ${rule.rationale}`).join('\n')}\n`;
}

export const README_RULES_BEGIN = '<!-- rules:begin (generated from the rules\' meta by `npm run readme`; do not edit) -->';
export const README_RULES_END = '<!-- rules:end -->';

/**
 * The README with its rule list rewritten between the markers. Undefined when the markers are
 * missing or out of order, so a caller can say where to put them rather than guess.
 */
export function withRulesList(readme: string, rules: readonly RuleMeta[]): string | undefined {
  const begin = readme.indexOf(README_RULES_BEGIN);
  const end = readme.indexOf(README_RULES_END);
  if (begin < 0 || end < begin) return undefined;
  return `${readme.slice(0, begin + README_RULES_BEGIN.length)}\n${rulesMarkdownList(rules)}${readme.slice(end)}`;
}
