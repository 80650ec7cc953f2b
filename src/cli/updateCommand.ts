import path from 'node:path';
import { refuseUnless } from '../util/ci.js';
import type { Command } from 'commander';
import type { Invocation } from './io.js';
import { collect, fullProject, globalOptions, shownPath } from './context.js';
import { progressFor, reportSwept } from './progress.js';

interface UpdateOptions {
  provider: string[];
  scenario: string[];
  prune?: boolean;
}

export function registerUpdate(program: Command, cli: Invocation): void {
  program
    .command('update')
    .description('rewrite the goldens of the selected provider × scenario cells from what the functions render now')
    .option('-p, --provider <name>', 'only this provider (repeatable)', collect, [])
    .option('-s, --scenario <name>', 'only this scenario (repeatable)', collect, [])
    .option('--prune', 'also remove goldens that nothing produces any more')
    .action(async (options: UpdateOptions, command: Command) => {
      refuseUnless(cli.policy.write, 'goldens'); // before the configuration is even read: under CI there is nothing to load it for
      const full = await fullProject(command, cli);
      const [{ selectProject }, { updateGoldens }, { holdWrites }] = await Promise.all([import('../config/load.js'), import('../pipeline/updateRun.js'), import('../goldens/atomicFile.js')]);
      const project = selectProject(full, options.provider, options.scenario);
      const progress = progressFor(cli, project.adapters.map((a) => a.name), globalOptions(command).verbose);
      const { run, goldens, writes, outlineWrites, outlined, removed, swept } = await updateGoldens({
        full,
        project,
        filters: { providers: options.provider, scenarios: options.scenario },
        prune: options.prune === true,
        ...(progress.onEvent ? { onEvent: progress.onEvent } : {}),
      });
      // updateGoldens wrote the goldens synchronously at its end, so no signal handler has run since
      // its last write: held from here to the contract's write, a signal ends drift after both.
      const releaseWrites = holdWrites();
      try {
        progress.done();
        reportSwept(cli, swept, project);
        const dir = path.resolve(project.config.root, project.config.goldens);
        const shown = (file: string) => shownPath(cli, path.join(dir, file));
        for (const write of [...writes, ...outlineWrites]) {
          if (write.change === 'not written') cli.io.stderr.write(`not written ${shown(write.file)}: ${write.why}\n`);
          else if (write.change !== 'unchanged') cli.io.stdout.write(`${(write.change === 'updated' ? 'changed' : write.change).padEnd(9)} ${shown(write.file)}\n`);
        }
        for (const golden of removed) cli.io.stdout.write(`removed   ${shown(golden.file)}\n`);
        const { added, updated, unchanged, removed: pruned, notWritten } = goldens.counters;
        cli.io.stdout.write(`${added} added, ${updated} changed, ${unchanged} unchanged${options.prune ? `, ${pruned} removed` : ''}${notWritten ? `, ${notWritten} not written` : ''}${outlined.length ? `; outlines: ${goldens.outlines.added} added, ${goldens.outlines.updated} changed, ${goldens.outlines.unchanged} unchanged` : ''}\n`);
        // The contract names every provider and reads their committed outlines: it changes with them,
        // in the same step, as with accept and lock.
        const { writeContract } = await import('./contractWrite.js');
        for (const written of writeContract(cli, full, { ifAdopted: true })) cli.io.stdout.write(`written ${written}\n`);
        if (run.providers.some((provider) => provider.error)) cli.code = 2;
        else cli.code = notWritten ? 1 : 0;
      } finally {
        releaseWrites();
      }
    });
}
