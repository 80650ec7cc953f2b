import { renderHtml, type HtmlOptions } from './html/page.js';
import { renderJson } from './json.js';
import { renderMarkdown, type MarkdownOptions } from './markdown.js';
import type { Report } from './model.js';
import { renderText } from './text.js';

export const REPORT_FORMATS = ['text', 'markdown', 'json', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** The report in one of drift's formats. Pure. */
export function renderReport(report: Report, format: ReportFormat, options: { color?: boolean; verbose?: boolean; markdown?: MarkdownOptions; html?: HtmlOptions } = {}): string {
  if (format === 'json') return renderJson(report);
  if (format === 'markdown') return renderMarkdown(report, options.markdown);
  if (format === 'html') return renderHtml(report, options.html);
  return renderText(report, { color: options.color ?? false, verbose: options.verbose ?? false });
}
