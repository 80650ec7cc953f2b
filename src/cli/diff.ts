import { writeFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { check } from '../check.js';
import { loadProject, selectProject } from '../config/load.js';
import { buildReport } from '../report/model.js';
import { renderText } from '../report/text.js';
import { goldenStore, obsoleteFinding, obsoleteGoldens } from './cells.js';
import { collect, globalOptions } from './context.js';

interface DiffOptions {
  provider: string[];
  scenario: string[];
  format: 'text' | 'json';
  output?: string;
}

export function registerDiff(program: Command): void {
  program
    .command('diff', { isDefault: false })
    .description('render every provider × scenario and compare the skeletons with their goldens')
    .option('-p, --provider <name>', 'only this provider (repeatable)', collect, [])
    .option('-s, --scenario <name>', 'only this scenario (repeatable)', collect, [])
    .addOption(new Option('-f, --format <format>', 'report format').choices(['text', 'json']).default('text'))
    .option('-o, --output <file>', 'write the report to a file instead of stdout')
    .action(async (options: DiffOptions, command: Command) => {
      const globals = globalOptions(command);
      const full = await loadProject(globals.config);
      const project = selectProject(full, options.provider, options.scenario);
      const store = goldenStore(project);
      const filtered = { providers: options.provider.length > 0, scenarios: options.scenario.length > 0 };
      const { analysis, findings } = await check(project, store, { filtered: filtered.providers || filtered.scenarios });
      for (const obsolete of await obsoleteGoldens(store, full, project, filtered)) findings.push(obsoleteFinding(obsolete, project.config.root));
      const report = buildReport(
        project.adapters.map((a) => a.name),
        project.scenarios.map((s) => s.name),
        findings,
      );
      const color = options.output === undefined && process.stdout.isTTY === true && globals.color !== false && !process.env.NO_COLOR;
      const text = options.format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderText(report, { color });
      if (options.output) writeFileSync(options.output, text);
      else process.stdout.write(text);
      if (analysis.starts.some((start) => start.error)) {
        for (const start of analysis.starts) if (start.error) process.stderr.write(`drift: ${start.error}\n`);
        process.exitCode = 2;
        return;
      }
      process.exitCode = report.summary.clean ? 0 : 1;
    });
}
