import type { Command } from 'commander';
import type { Invocation } from './io.js';
import { fullProject } from './context.js';

export function registerContract(program: Command, cli: Invocation): void {
  program
    .command('contract')
    .description("write CONTRACT.md, the agent skill and contract.json from the rules' meta, the locked conventions, the accepted entries and the committed outlines")
    .option('--check', 'write nothing; exit 1 when a committed file differs from what drift would write')
    .action(async (options: { check?: boolean }, command: Command) => {
      const project = await fullProject(command, cli);
      // Loaded when the command runs: `drift --version` and every other command need none of it.
      const [{ loadAccepted }, { ContractStore }, { generatedContract }, { shownIn, writeContract }] = await Promise.all([
        import('../goldens/acceptedStore.js'),
        import('../goldens/contractStore.js'),
        import('../pipeline/contractRun.js'),
        import('./contractWrite.js'),
      ]);
      const store = ContractStore.of(project);
      const shown = shownIn(cli, store);
      if (options.check) {
        const stale = store.stale(generatedContract(project, loadAccepted(project)));
        for (const file of stale) cli.io.stdout.write(`stale   ${shown(file)}\n`);
        if (stale.length) {
          cli.io.stdout.write('run `drift contract` and commit the result\n');
          cli.code = 1;
        } else cli.io.stdout.write(`the contract in ${shown('.')} is current\n`);
        return;
      }
      const changed = writeContract(cli, project);
      for (const file of changed) cli.io.stdout.write(`written ${file}\n`);
      if (!changed.length) cli.io.stdout.write(`the contract in ${shown('.')} is current\n`);
    });
}
