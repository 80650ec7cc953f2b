import path from 'node:path';
import type { Command } from 'commander';
import { collect, fullProject, globalOptions } from './context.js';
import { progressFor, reportSwept } from './progress.js';

interface UpdateOptions {
  provider: string[];
  scenario: string[];
  prune?: boolean;
}

export function registerUpdate(program: Command): void {
  program
    .command('update')
    .description('rewrite the goldens of the selected provider × scenario cells from what the functions render now')
    .option('-p, --provider <name>', 'only this provider (repeatable)', collect, [])
    .option('-s, --scenario <name>', 'only this scenario (repeatable)', collect, [])
    .option('--prune', 'also remove goldens that nothing produces any more')
    .action(async (options: UpdateOptions, command: Command) => {
      const { refuseUnderCI } = await import('../goldens/store.js');
      refuseUnderCI(); // before the configuration is even read: under CI there is nothing to load it for
      const full = await fullProject(command);
      const [{ selectProject }, { updateGoldens }] = await Promise.all([import('../config/load.js'), import('../pipeline/updateRun.js')]);
      const project = selectProject(full, options.provider, options.scenario);
      const progress = progressFor(project.adapters.map((a) => a.name), globalOptions(command).verbose);
      const { run, goldens, writes, outlineWrites, outlined, removed, swept } = await updateGoldens({
        full,
        project,
        filters: { providers: options.provider, scenarios: options.scenario },
        prune: options.prune === true,
        ...(progress.onEvent ? { onEvent: progress.onEvent } : {}),
      });
      progress.done();
      reportSwept(swept, project);
      const dir = path.resolve(project.config.root, project.config.goldens);
      const shown = (file: string) => path.relative(process.cwd(), path.join(dir, file));
      for (const write of [...writes, ...outlineWrites]) {
        if (write.change === 'not written') process.stderr.write(`not written ${shown(write.file)}: ${write.why}\n`);
        else if (write.change !== 'unchanged') process.stdout.write(`${(write.change === 'updated' ? 'changed' : write.change).padEnd(9)} ${shown(write.file)}\n`);
      }
      for (const golden of removed) process.stdout.write(`removed   ${shown(golden.file)}\n`);
      const { added, updated, unchanged, removed: pruned, notWritten } = goldens.counters;
      process.stdout.write(`${added} added, ${updated} changed, ${unchanged} unchanged${options.prune ? `, ${pruned} removed` : ''}${notWritten ? `, ${notWritten} not written` : ''}${outlined.length ? `; outlines: ${goldens.outlines.added} added, ${goldens.outlines.updated} changed, ${goldens.outlines.unchanged} unchanged` : ''}\n`);
      if (run.providers.some((provider) => provider.error)) process.exitCode = 2;
      else process.exitCode = notWritten ? 1 : 0;
    });
}
