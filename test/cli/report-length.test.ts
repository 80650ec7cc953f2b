/**
 * A report a maintainer reads in a minute (issue 38): every style seed and ten behavioral mutation
 * seeds planted at once into the five bundled providers (test/helpers/causeSet.ts), goldens written
 * from the seeded functions, so `drift diff` reports what the providers do against each other and the
 * contract. That is at least 30 causes; the text report takes at most 150 lines, and the Markdown
 * comment fits GitHub's limit with every cause in it and nothing dropped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/model.js';
import { GITHUB_COMMENT_LIMIT } from '../../src/report/markdown.js';
import { seededWithCauses } from '../helpers/causeSet.js';
import { runDrift } from '../helpers/drift.js';
import type { ProjectCopy } from '../helpers/project.js';

const SLOW = 600_000;

describe('a set of thirty causes', () => {
  let copy: ProjectCopy;
  let report: Report;
  let text: string;
  let markdown: string;
  beforeAll(async () => {
    copy = seededWithCauses();
    const update = await runDrift(['update'], copy.dir);
    expect(update.exitCode, update.all).toBe(0);
    const [json, plain, comment] = [await runDrift(['diff', '-f', 'json'], copy.dir), await runDrift(['diff'], copy.dir), await runDrift(['diff', '-f', 'markdown'], copy.dir)];
    for (const run of [json, plain, comment]) expect([run.exitCode, run.stderr]).toEqual([1, '']);
    report = JSON.parse(json.stdout) as Report;
    [text, markdown] = [plain.stdout, comment.stdout];
  }, SLOW);
  afterAll(() => copy?.remove());

  it('has at least 30 causes, several of them one place yielding several findings, and no golden finding', () => {
    expect(report.findings.length).toBeGreaterThanOrEqual(30);
    expect(report.findings.filter((finding) => finding.type === 'cause').length).toBeGreaterThanOrEqual(3);
    expect(report.summary.consequences).toBeGreaterThan(report.summary.findings);
    expect(report.findings.filter((finding) => finding.type === 'golden')).toEqual([]);
  });

  it('prints the text report in at most 150 lines, each cause on one line with its id', () => {
    const lines = text.trimEnd().split('\n');
    console.log(`thirty causes: text ${lines.length} lines, ${Buffer.byteLength(text)} bytes; markdown ${markdown.length} characters; ${report.summary.findings} findings from ${report.summary.consequences} consequences`);
    expect(lines.length).toBeLessThanOrEqual(150);
    for (const finding of report.findings) expect(lines.filter((line) => line.startsWith('  ✗ ') && line.endsWith(`[${finding.id}]`)), finding.id).toHaveLength(1);
    // Scenarios once: no finding's headline counts them again, and no value is printed as JSON.
    expect(text).not.toMatch(/\(in \d+ scenarios\)/);
    expect(text).not.toMatch(/^ {6}\S[^:]*: \[?"/m);
  });

  it('fits the Markdown comment in GitHub’s limit with every cause and its consequences, nothing dropped', () => {
    expect(markdown.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(markdown).not.toContain('Shortened to fit');
    for (const finding of report.findings) {
      expect(markdown, finding.id).toContain(finding.id);
      for (const consequence of finding.consequences ?? []) expect(markdown, consequence.id).toContain(consequence.id);
    }
  });
});
