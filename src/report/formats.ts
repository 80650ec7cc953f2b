import { renderJson } from './json.js';
import { renderMarkdown, type MarkdownOptions } from './markdown.js';
import type { Report } from './model.js';
import { renderText } from './text.js';

export const REPORT_FORMATS = ['text', 'markdown', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** The report in one of drift's formats. Pure. */
export function renderReport(report: Report, format: ReportFormat, options: { color?: boolean; verbose?: boolean; markdown?: MarkdownOptions } = {}): string {
  if (format === 'json') return renderJson(report);
  if (format === 'markdown') return renderMarkdown(report, options.markdown);
  return renderText(report, { color: options.color ?? false, verbose: options.verbose ?? false });
}
