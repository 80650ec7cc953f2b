/**
 * Checks a JSON report that someone else's run wrote, such as the artifact of a pull request's drift
 * run: its code wrote the file, so nothing in it is trusted. The text is parsed as strict JSON,
 * checked for a schemaVersion this drift knows, and validated against schemas/report.schema.json;
 * only then is it a Report, whose every string the renderers escape. Reading the file (and capping
 * its size before reading) is the CLI's job.
 */
import { packageFile } from '../config/paths.js';
import { readYamlFile } from '../config/yamlFile.js';
import { DriftError, InputError } from '../errors.js';
import type { Report } from './model.js';

/** The incompatible report versions this drift reads (schemas/report.schema.json's schemaVersion). */
// 1 and 2 stay readable: the comment job reads with the default branch's drift a report the pull
// request's drift wrote; version 2 is version 3 without causes, version 1 version 2 without `scenarios`.
export const READABLE_SCHEMA_VERSIONS: readonly number[] = [1, 2, 3];
/** Far above any real report (GitHub's comment limit is 64 KiB), far below what could hurt. */
export const REPORT_FILE_LIMIT = 8 * 1024 * 1024;

/** The refusal of a report file too large to be one drift wrote. */
export function oversizedReport(file: string, size: number): DriftError | undefined {
  return size > REPORT_FILE_LIMIT ? new DriftError(`${file} has ${size} bytes, more than the ${REPORT_FILE_LIMIT} a drift report may have: it is not a report drift wrote`) : undefined;
}

/** The report in `text`, read from `file` (named in every error). */
export function parseReportArtifact(file: string, text: string): Report {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const { line, col } = positionOf(text, error as Error);
    throw new InputError(file, line, col, `not valid JSON: ${(error as Error).message.replace(/ (?:in JSON)? at position \d+.*$/s, '').replace(/, ".*$/s, '')}; write the report with \`drift diff --format json\``);
  }
  const record = (typeof data === 'object' && data !== null && !Array.isArray(data) ? data : {}) as Record<string, unknown>;
  if (record.tool !== 'drift' || !('schemaVersion' in record)) throw new DriftError(`${file} is not a drift JSON report (no "tool": "drift" and schemaVersion); write it with \`drift diff --format json\``);
  const version = record.schemaVersion;
  if (typeof version !== 'number' || !READABLE_SCHEMA_VERSIONS.includes(version)) {
    throw new DriftError(
      `${file} is a drift report of schemaVersion ${JSON.stringify(version)}, which this drift cannot read (it reads ${READABLE_SCHEMA_VERSIONS.join(', ')}): update drift where it reads the report (the default branch, for the comment job)`,
    );
  }
  // JSON is YAML: the YAML reader validates it and names the line and column of what is wrong.
  const report = readYamlFile<Omit<Report, 'candidates' | 'summary'> & { candidates?: Report['candidates']; summary: Omit<Report['summary'], 'consequences'> & { consequences?: number } }>(file, packageFile('schemas/report.schema.json'), { text, cache: undefined });
  // A report of an older drift has no candidate conventions (it listed none) and no causes (each finding is its own).
  return { ...report, candidates: report.candidates ?? [], summary: { ...report.summary, consequences: report.summary.consequences ?? report.summary.findings } };
}

/**
 * Where JSON.parse stopped, as a 1-based line and column. Node names the position for most errors
 * but not all (an unexpected letter, the end of the text): then the shortest prefix of the text that
 * fails before its end ends at the culprit, found by halving (a valid JSON text's
 * prefixes parse or fail only at their end).
 */
function positionOf(text: string, error: Error): { line: number; col: number } {
  const at = /position (\d+)/.exec(error.message);
  const offset = at ? Number(at[1]) : firstBadOffset(text);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, col: offset - before.lastIndexOf('\n') };
}

/** The offset of the first character JSON.parse refuses in `text`, or its length when only the end is wrong. */
function firstBadOffset(text: string): number {
  const wrongBefore = (end: number): boolean => {
    try {
      JSON.parse(text.slice(0, end));
      return false;
    } catch (error) {
      // A prefix cut inside a string or a number fails at its very end: that is its end, not a fault.
      const { message } = error as Error;
      const at = /position (\d+)/.exec(message);
      return at ? Number(at[1]) < end : !message.startsWith('Unexpected end of JSON input');
    }
  };
  let [low, high] = [0, text.length];
  if (!wrongBefore(high)) return text.length;
  // wrongBefore(high) holds and wrongBefore(low) does not: narrow to the shortest failing prefix.
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (wrongBefore(middle)) high = middle;
    else low = middle;
  }
  return high - 1;
}
