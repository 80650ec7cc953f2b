import type { RuleMeta } from '../compare/rules/types.js';

/** `drift rules`: each rule's id, what it demands, why, and when it looks. */
export function rulesText(rules: readonly RuleMeta[]): string {
  const blocks = rules.map((rule) => [rule.id, `  ${rule.description}`, `  why: ${rule.rationale}`, `  applies: ${rule.appliesWhen}`].join('\n'));
  return `${blocks.join('\n\n')}\n`;
}

/** docs/rules.md's rule list: one bullet a rule, what it demands and why. */
export function rulesMarkdownList(rules: readonly RuleMeta[]): string {
  return `${rules.map((rule) => `- \`${rule.id}\` (${rule.class}): ${rule.description} *Why:* ${rule.rationale}`).join('\n')}\n`;
}

/** The markers around docs/rules.md's rule list, which `npm run docs` rewrites between them. */
export const RULES_BEGIN = '<!-- rules:begin (generated from the rules\' meta by `npm run docs`; do not edit) -->';
export const RULES_END = '<!-- rules:end -->';
