/**
 * A report's findings one by one: each cause (several findings one place in a provider's code decides,
 * src/compare/grouping.ts) replaced by its consequences. Tests that pin what a seeded drift is found as
 * read reports this way; test/cli/causes.test.ts pins how findings group into causes.
 */
import { consequencesOf } from '../../src/compare/findings.js';
import type { Report } from '../../src/report/model.js';

export function flattened(report: Report): Report {
  return { ...report, findings: report.findings.flatMap(consequencesOf), accepted: report.accepted.flatMap(consequencesOf) };
}
