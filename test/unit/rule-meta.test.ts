/** Rules describe themselves (`meta`), and everything that lists rules is written from that. */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULE_METAS, RULES } from '../../src/compare/rules/index.js';
import type { RuleMeta } from '../../src/compare/rules/types.js';
import { rulesMarkdownList, rulesText } from '../../src/report/rulesText.js';
import { REPO } from '../helpers/project.js';

const RULES_DIR = path.join(REPO, 'src/compare/rules');
const modules = await Promise.all(
  readdirSync(RULES_DIR)
    .filter((file) => file.endsWith('.ts'))
    .sort()
    .map(async (file) => ({ file, exports: (await import(path.join(RULES_DIR, file))) as Record<string, unknown> })),
);
const ruleModules = modules.filter((module) => module.exports.meta !== undefined);

describe('rule modules', () => {
  it('every rule module exports its meta and one check, and the helpers neither', () => {
    for (const { file, exports } of modules) {
      const isRule = exports.meta !== undefined;
      expect(typeof exports.check, `${file}: check`).toBe(isRule ? 'function' : 'undefined');
    }
    expect(ruleModules.length).toBeGreaterThan(10);
  });

  it("each meta's id is its module's file name", () => {
    for (const { file, exports } of ruleModules) expect((exports.meta as RuleMeta).id).toBe(file.replace(/\.ts$/, ''));
  });

  it('RULES holds every rule module exactly once, with the meta the module exports', () => {
    expect(RULES.map((rule) => rule.id).sort()).toEqual(ruleModules.map(({ file }) => file.replace(/\.ts$/, '')).sort());
    for (const { exports } of ruleModules) expect(RULE_METAS).toContainEqual(exports.meta);
  });

  it('every field of every meta is filled in, and the description is one line', () => {
    for (const meta of RULE_METAS) {
      for (const text of [meta.description, meta.rationale, meta.appliesWhen, meta.examples.violation, meta.examples.fix]) expect(text.trim().length, meta.id).toBeGreaterThan(10);
      expect(meta.description).not.toContain('\n');
      expect(['contract', 'behavioral', 'stylistic']).toContain(meta.class);
    }
  });
});

describe('written from meta', () => {
  it('drift rules prints each rule with its description, rationale and when it applies', () => {
    const text = rulesText(RULE_METAS);
    for (const meta of RULE_METAS) for (const part of [meta.id, meta.description, meta.rationale, meta.appliesWhen]) expect(text).toContain(part);
  });

  it("docs/rules.md lists every rule with its description and rationale (test/unit/docs.test.ts checks it is current)", () => {
    const page = readFileSync(path.join(REPO, 'docs/rules.md'), 'utf8');
    expect(page).toContain(rulesMarkdownList(RULE_METAS));
    for (const meta of RULE_METAS) expect(rulesMarkdownList(RULE_METAS)).toContain(`\`${meta.id}\` (${meta.class}): ${meta.description} *Why:* ${meta.rationale}`);
  });
});
