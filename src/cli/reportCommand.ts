/**
 * `drift report --from r.json`: a saved JSON report (another run's, such as a pull request's
 * artifact) rendered in any of drift's formats, the conformance page among them. The report is
 * checked as `drift comment` checks it (size cap, schema, file:line:col errors) before anything is
 * rendered.
 */
import path from 'node:path';
import { Option, type Command } from 'commander';
import { projectRoot } from '../config/projectRoot.js';
import { REPORT_FORMATS, renderReport, type ReportFormat } from '../report/formats.js';
import { readReportArtifact } from './commentCommand.js';
import { globalOptions } from './context.js';
import { checkOutputFolder, writeReport } from './diffCommand.js';
import type { Invocation } from './io.js';
import { addPageOptions, pageLinks, type PageOptions } from './pageLinks.js';

interface ReportOptions extends PageOptions {
  from: string;
  format: ReportFormat;
  output?: string;
}

export function registerReport(program: Command, cli: Invocation): void {
  const command = program
    .command('report')
    .description('render a saved JSON report (drift diff --format json) in another format, such as the conformance page (--format html)')
    .requiredOption('--from <file>', 'the JSON report to render')
    .addOption(new Option('-f, --format <format>', 'report format').choices([...REPORT_FORMATS]).default('text'))
    .option('-o, --output <file>', 'write the report to a file instead of stdout');
  addPageOptions(command).action(async (options: ReportOptions, self: Command) => {
    const output = options.output === undefined ? undefined : path.resolve(cli.io.cwd, options.output);
    if (output !== undefined) checkOutputFolder(output, options.output!);
    // Places in a report are relative to the project root it was run in: this folder's project.
    const links = pageLinks(options, cli, projectRoot(globalOptions(self).config, cli.io.cwd), output);
    const report = await readReportArtifact(options.from, cli.io.cwd);
    const text = renderReport(report, options.format, { html: { links } });
    if (output !== undefined) await writeReport(cli, output, options.output!, text);
    else cli.io.stdout.write(text);
    cli.code = 0;
  });
}
