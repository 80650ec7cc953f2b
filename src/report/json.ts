import type { Finding } from '../compare/findings.js';
import { sortKeys } from '../util/objects.js';
import type { ChangedRun, Report } from './model.js';

/** The order every finding's keys are written in: the order of schemas/report.schema.json. */
const FINDING_KEYS = ['id', 'type', 'class', 'provider', 'scenario', 'scenarios', 'subject', 'facet', 'message', 'values', 'consensus', 'groups', 'ways', 'tipped', 'diff', 'where', 'hint', 'accepted', 'consequences'] as const;

function orderedFinding(finding: Finding): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of FINDING_KEYS) {
    const value = finding[key];
    if (value === undefined) continue;
    // values and consensus are free-form data: sort their keys so equal data gives equal text.
    if (key === 'values' || key === 'consensus' || key === 'groups' || key === 'ways') out[key] = sortKeys(value);
    else if (key === 'accepted') out[key] = { reason: finding.accepted!.reason };
    else if (key === 'tipped') out[key] = { effect: finding.tipped!.effect, blames: [...finding.tipped!.blames], decision: finding.tipped!.decision };
    // A cause's consequences are whole findings, written in the same key order.
    else if (key === 'consequences') out[key] = finding.consequences!.map(orderedFinding);
    else out[key] = value;
  }
  return out;
}

/** `changed` in the schema's key order. */
function orderedChanged(changed: ChangedRun): Record<string, unknown> {
  return {
    ref: changed.ref,
    base: changed.base,
    run: changed.run,
    rendered: [...changed.rendered],
    files: changed.files.map((entry) => ({ file: entry.file, kind: entry.kind, ...(entry.provider !== undefined ? { provider: entry.provider } : {}) })),
    ignored: changed.ignored,
  };
}

/** `timelines` in the report's provider and scenario order, each entry's keys in the schema's order. */
function orderedTimelines(report: Report): Record<string, unknown> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const provider of report.providers) {
    const cells = report.timelines![provider];
    if (!cells) continue;
    out[provider] = {};
    for (const scenario of report.scenarios) {
      const timeline = cells[scenario];
      if (!timeline) continue;
      out[provider][scenario] = {
        converged: timeline.converged,
        xrReady: timeline.xrReady,
        resources: timeline.resources.map((entry) => ({
          key: entry.key,
          role: entry.role,
          appears: entry.appears,
          ready: entry.ready,
          ...(entry.readyBy ? { readyBy: entry.readyBy } : {}),
          ...(entry.dropped !== undefined ? { dropped: entry.dropped } : {}),
        })),
      };
    }
  }
  return out;
}

/** The report as a plain object whose key order is fixed, whatever order the report was built in. */
export function reportToJson(report: Report): Record<string, unknown> {
  const cells: Record<string, Record<string, string>> = {};
  const scenarios = [...report.scenarios, ...Object.keys(report.cells).filter((s) => !report.scenarios.includes(s))];
  for (const scenario of scenarios) {
    const row = report.cells[scenario];
    if (!row) continue;
    const providers = [...report.providers, ...Object.keys(row).filter((p) => !report.providers.includes(p))];
    cells[scenario] = {};
    for (const provider of providers) if (row[provider] !== undefined) cells[scenario][provider] = row[provider];
  }
  const { summary } = report;
  return {
    schemaVersion: report.schemaVersion,
    tool: report.tool,
    providers: [...report.providers],
    scenarios: [...report.scenarios],
    cells,
    ...(report.sources ? { sources: Object.fromEntries(report.providers.filter((p) => report.sources![p] !== undefined).map((p) => [p, report.sources![p]])) } : {}),
    ...(report.changed ? { changed: orderedChanged(report.changed) } : {}),
    findings: report.findings.map(orderedFinding),
    accepted: report.accepted.map(orderedFinding),
    candidates: report.candidates.map(({ facet, subject, value }) => ({ facet, subject, value })),
    ...(report.notes?.length ? { notes: [...report.notes] } : {}),
    ...(report.timelines ? { timelines: orderedTimelines(report) } : {}),
    summary: {
      findings: summary.findings,
      consequences: summary.consequences,
      contract: summary.contract,
      behavioral: summary.behavioral,
      stylistic: summary.stylistic,
      accepted: summary.accepted,
      clean: summary.clean,
    },
  };
}

/** The machine-readable report (schemas/report.schema.json): stable key order, two-space indent, trailing newline. */
export function renderJson(report: Report): string {
  return `${JSON.stringify(reportToJson(report), null, 2)}\n`;
}
