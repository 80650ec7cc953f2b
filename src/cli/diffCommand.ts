import type { Invocation } from './io.js';
import { appendFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { renderMarkdown } from '../report/markdown.js';
import { REPORT_FORMATS, renderReport, type ReportFormat } from '../report/formats.js';
import type { Filters } from '../pipeline/goldens.js';
import type { Project } from '../config/types.js';
import type { ChangedRun } from '../report/model.js';
import { DriftError } from '../errors.js';
import { collect, fullProject, globalOptions } from './context.js';
import { progressFor, reportSwept } from './progress.js';
import { addPageOptions, pageLinks, type PageOptions } from './pageLinks.js';

interface DiffOptions extends PageOptions {
  provider: string[];
  scenario: string[];
  format: ReportFormat;
  output?: string;
  /** `--changed` alone is true; `--changed REF` the ref. */
  changed?: string | true;
}

export function registerDiff(program: Command, cli: Invocation): void {
  const diff = program
    .command('diff', { isDefault: false })
    .description('render every provider × scenario and compare the skeletons with their goldens')
    .option('-p, --provider <name>', 'only this provider (repeatable)', collect, [])
    .option('-s, --scenario <name>', 'only this scenario (repeatable)', collect, [])
    .addOption(new Option('-f, --format <format>', 'report format').choices([...REPORT_FORMATS]).default('text'))
    .option('-o, --output <file>', 'write the report to a file instead of stdout')
    .addOption(
      new Option(
        '--changed [REF]',
        'render only the providers whose own files (function folder, adapter, XRD, goldens) changed since the merge base of HEAD with REF, working tree and untracked files included; the others stand in through their goldens, as with -p (not combined with -p). A changed scenario, config, accepted.yaml, shared provider file or drift version renders everyone (default REF: origin/HEAD if set, else main, else master)',
      ).conflicts('provider'),
    );
  addPageOptions(diff)
    .action(async (options: DiffOptions, command: Command) => {
      const globals = globalOptions(command);
      // Checked before anything renders: a report with nowhere to go is bad input, not a late crash.
      const output = options.output === undefined ? undefined : path.resolve(cli.io.cwd, options.output);
      if (output !== undefined) checkOutputFolder(output, options.output!);
      const full = await fullProject(command, cli);
      const links = pageLinks(options, cli, full.config.root, output);
      const [{ project, filters, changed }, { diffReport }] = await Promise.all([selection(full, options), import('../pipeline/diffVerdict.js')]);
      const progress = progressFor(cli, project.adapters.map((a) => a.name), globals.verbose);
      const { report, errors, swept } = await diffReport({
        full,
        project,
        filters,
        changed: changed !== undefined,
        ...(changed ? { changedRun: changed } : {}),
        // --verbose prints the run's timings and --changed decides what renders with git: both judge every time.
        keep: changed === undefined && !globals.verbose,
        ...(progress.onEvent ? { onEvent: progress.onEvent } : {}),
      });
      progress.done();
      reportSwept(cli, swept, project);
      const color = options.output === undefined && cli.io.stdout.isTTY === true && globals.color !== false && !cli.io.env.NO_COLOR;
      const text = renderReport(report, options.format, { color, verbose: globals.verbose ?? false, html: { links } });
      if (output !== undefined) await writeReport(cli, output, options.output!, text);
      else cli.io.stdout.write(text);
      const stepSummary = cli.io.env.GITHUB_STEP_SUMMARY;
      if (stepSummary) appendFileSync(stepSummary, options.format === 'markdown' ? text : renderMarkdown(report));
      if (errors.length > 0) {
        for (const error of errors) cli.io.stderr.write(`drift: ${error}\n`);
        cli.code = 2;
        return;
      }
      cli.code = report.summary.clean ? 0 : 1;
    });
}

/** What the run renders: the --provider / --scenario filters, or with --changed what changed (and why). */
async function selection(full: Project, options: DiffOptions): Promise<{ project: Project; filters: Filters; changed?: ChangedRun }> {
  const { selectProject } = await import('../config/load.js');
  if (options.changed === undefined) return { project: selectProject(full, options.provider, options.scenario), filters: { providers: options.provider, scenarios: options.scenario } };
  selectProject(full, [], options.scenario); // an unknown --scenario is refused before git runs
  const { findChanged, selectChanged } = await import('../pipeline/changedRun.js');
  const changed = await findChanged(full, options.changed === true ? undefined : options.changed);
  return { ...selectChanged(full, changed, options.scenario), changed };
}

/** The folder `--output` writes into must exist already: drift creates no folders for a report. */
export function checkOutputFolder(output: string, given: string): void {
  const folder = path.dirname(output);
  let isFolder = false;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    // missing
  }
  if (!isFolder) throw new DriftError(`--output ${given}: the folder ${folder} does not exist; create it or write the report elsewhere`);
}

export async function writeReport(cli: Invocation, output: string, given: string, text: string): Promise<void> {
  const { sweepLeftoversOf, writeFileAtomic } = await import('../goldens/atomicFile.js');
  try {
    for (const file of sweepLeftoversOf(output)) cli.io.stderr.write(`drift: removed ${path.relative(cli.io.cwd, file)}, left by an interrupted write\n`);
    writeFileAtomic(output, text);
  } catch (error) {
    throw new DriftError(`--output ${given}: could not write the report: ${(error as Error).message}`);
  }
}
