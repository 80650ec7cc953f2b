import { appendFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { check } from '../check.js';
import { selectProject } from '../config/load.js';
import { buildReport } from '../report/model.js';
import { renderMarkdown } from '../report/markdown.js';
import { REPORT_FORMATS, renderReport, type ReportFormat } from '../report/render.js';
import { GoldenStore } from '../goldens/store.js';
import { obsoleteFinding, obsoleteGoldens } from './cells.js';
import { DriftError } from '../errors.js';
import { collect, fullProject, globalOptions } from './context.js';
import { liveProgress, printOutlines, printTimings } from './progress.js';

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
      const store = GoldenStore.of(project);
      const filtered = { providers: options.provider.length > 0, scenarios: options.scenario.length > 0 };
      const onProgress = liveProgress(project.adapters.map((a) => a.name));
      const others = full.adapters.map((adapter) => adapter.name).filter((name) => !project.adapters.some((adapter) => adapter.name === name));
      const { analysis, findings, outlined } = await check(project, store, { filtered: filtered.providers || filtered.scenarios, others, ...(onProgress ? { onProgress } : {}) });
      if (globals.verbose) {
        printTimings(analysis);
        printOutlines(outlined);
      }
      for (const obsolete of await obsoleteGoldens(store, full, project, filtered)) findings.push(obsoleteFinding(obsolete, project.config.root));
      const report = buildReport(
        project.adapters.map((a) => a.name),
        project.scenarios.map((s) => s.name),
        findings,
        { sources: outlined.map((source) => source.adapter.name) },
      );
      const color = options.output === undefined && process.stdout.isTTY === true && globals.color !== false && !process.env.NO_COLOR;
      const text = renderReport(report, options.format, { color });
      if (options.output) writeReport(options.output, text);
      else process.stdout.write(text);
      const stepSummary = process.env.GITHUB_STEP_SUMMARY;
      if (stepSummary) appendFileSync(stepSummary, options.format === 'markdown' ? text : renderMarkdown(report));
      if (analysis.starts.some((start) => start.error)) {
        for (const start of analysis.starts) if (start.error) process.stderr.write(`drift: ${start.error}\n`);
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
