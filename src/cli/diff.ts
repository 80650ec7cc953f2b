import { appendFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { selectProject } from '../config/load.js';
import { buildReport } from '../report/model.js';
import { renderMarkdown } from '../report/markdown.js';
import { REPORT_FORMATS, renderReport, type ReportFormat } from '../report/render.js';
import { diffProject } from '../pipeline/diff.js';
import { DriftError } from '../errors.js';
import { collect, fullProject, globalOptions } from './context.js';
import { progressFor, reportSwept } from './progress.js';

interface DiffOptions {
  provider: string[];
  scenario: string[];
  format: ReportFormat;
  output?: string;
}

export function registerDiff(program: Command): void {
  program
    .command('diff', { isDefault: false })
    .description('render every provider × scenario and compare the skeletons with their goldens')
    .option('-p, --provider <name>', 'only this provider (repeatable)', collect, [])
    .option('-s, --scenario <name>', 'only this scenario (repeatable)', collect, [])
    .addOption(new Option('-f, --format <format>', 'report format').choices([...REPORT_FORMATS]).default('text'))
    .option('-o, --output <file>', 'write the report to a file instead of stdout')
    .action(async (options: DiffOptions, command: Command) => {
      const globals = globalOptions(command);
      // Checked before anything renders: a report with nowhere to go is bad input, not a late crash.
      if (options.output !== undefined) checkOutputFolder(options.output);
      const full = await fullProject(command);
      const project = selectProject(full, options.provider, options.scenario);
      const progress = progressFor(project.adapters.map((a) => a.name), globals.verbose);
      const { run, findings, candidates, outlined, swept } = await diffProject({
        full,
        project,
        filters: { providers: options.provider, scenarios: options.scenario },
        ...(progress.onEvent ? { onEvent: progress.onEvent } : {}),
      });
      progress.done();
      reportSwept(swept, project);
      const report = buildReport(
        project.adapters.map((a) => a.name),
        project.scenarios.map((s) => s.name),
        findings,
        { sources: outlined.map((source) => source.adapter.name), candidates: candidates.map((candidate) => ({ facet: candidate.facet, subject: candidate.subject, value: candidate.words })) },
      );
      const color = options.output === undefined && process.stdout.isTTY === true && globals.color !== false && !process.env.NO_COLOR;
      const text = renderReport(report, options.format, { color, verbose: globals.verbose ?? false });
      if (options.output) writeReport(options.output, text);
      else process.stdout.write(text);
      const stepSummary = process.env.GITHUB_STEP_SUMMARY;
      if (stepSummary) appendFileSync(stepSummary, options.format === 'markdown' ? text : renderMarkdown(report));
      if (run.providers.some((provider) => provider.error)) {
        for (const provider of run.providers) if (provider.error) process.stderr.write(`drift: ${provider.error}\n`);
        process.exitCode = 2;
        return;
      }
      process.exitCode = report.summary.clean ? 0 : 1;
    });
}

/** The folder `--output` writes into must exist already: drift creates no folders for a report. */
function checkOutputFolder(output: string): void {
  const folder = path.dirname(path.resolve(output));
  let isFolder = false;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    // missing
  }
  if (!isFolder) throw new DriftError(`--output ${output}: the folder ${folder} does not exist; create it or write the report elsewhere`);
}

function writeReport(output: string, text: string): void {
  try {
    writeFileSync(output, text);
  } catch (error) {
    throw new DriftError(`--output ${output}: could not write the report: ${(error as Error).message}`);
  }
}
