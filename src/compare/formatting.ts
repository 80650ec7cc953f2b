import type { FormatterReport } from '../outline/formatter.js';
import type { OutlineResult } from '../outline/types.js';
import type { Finding } from './findings.js';
import { findingId } from './findingId.js';

/**
 * Formatting is a rule, not a vote: every provider's source passes the formatter and linter
 * configured for it. One finding per provider and tool, listing every file it would change. Pure.
 */
export function formattingFindings(report: FormatterReport, root: string): Finding[] {
  const { provider } = report;
  // No ruff at all is the run's note (FormatterReport.note), not the provider's finding: nothing in its code is wrong.
  if (report.note) return [];
  const which = report.ruff ? ` (${report.ruff.describe})` : '';
  if (report.error) {
    return [
      {
        id: findingId('style', 'source', 'ruff', provider),
        type: 'error',
        class: 'stylistic',
        provider,
        subject: 'source',
        facet: 'ruff',
        message: `could not check formatting: ${report.error}`,
        hint: "install ruff in the provider's Python environment (pin it in its requirements) and run drift again",
      },
    ];
  }
  const findings: Finding[] = [];
  if (report.unformatted.length > 0) {
    const files = report.unformatted.map((violation) => `${root}/${violation.file}:${violation.line}`);
    findings.push({
      id: findingId('style', 'format', 'ruff-format', provider),
      type: 'style',
      class: 'stylistic',
      provider,
      subject: 'format',
      facet: 'ruff-format',
      message: `ruff format${which} would change ${files.length} file${files.length === 1 ? '' : 's'}: ${files.join(', ')}`,
      values: { files },
      hint: `run \`ruff format\` in ${root} (the committed ruff configuration decides the style), then commit`,
    });
  }
  if (report.lint.length > 0) {
    const places = report.lint.map((violation) => `${root}/${violation.file}:${violation.line} ${violation.code}`);
    findings.push({
      id: findingId('style', 'lint', 'ruff-check', provider),
      type: 'style',
      class: 'stylistic',
      provider,
      subject: 'lint',
      facet: 'ruff-check',
      message: `ruff check${which} reports ${places.length} problem${places.length === 1 ? '' : 's'}: ${places.slice(0, 5).join(', ')}${places.length > 5 ? ', ...' : ''}`,
      values: { problems: report.lint.map((violation) => `${root}/${violation.file}:${violation.line} ${violation.code} ${violation.message}`) },
      hint: `fix what \`ruff check\` reports in ${root} (\`ruff check --fix\` fixes the safe ones)`,
    });
  }
  return findings;
}

/** A file that does not parse: reported where, never a crash; its provider's other files still count. */
export function syntaxFindings(provider: string, result: OutlineResult, root: string): Finding[] {
  return result.syntaxErrors.map(({ file, line, column }) => ({
    id: findingId('style', file, 'syntax', provider),
    type: 'error',
    class: 'stylistic',
    provider,
    subject: file,
    facet: 'syntax',
    message: `${root}/${file}:${line}:${column}: the source does not parse`,
    hint: `fix the syntax error at ${root}/${file}:${line}:${column}; until then its outline is partial`,
  }));
}
