import path from 'node:path';
import type { Command } from 'commander';
import type { Project } from '../config/types.js';
import { loadAccepted } from '../goldens/accepted.js';
import { ContractStore } from '../goldens/contractStore.js';
import { refuseUnderCI } from '../goldens/store.js';
import { generatedContract } from '../pipeline/contract.js';
import { fullProject } from './context.js';

const shownIn = (store: ContractStore) => (file: string) => path.relative(process.cwd(), path.join(store.dir, file)) || '.';

/** Writes the project's generated contract (never under CI); returns the files it changed, as the user sees them. */
export function writeContract(project: Project): string[] {
  const store = ContractStore.of(project);
  const files = generatedContract(project, loadAccepted(project));
  if (store.stale(files).length) refuseUnderCI();
  return store.write(files).map(shownIn(store));
}

export function registerContract(program: Command): void {
  program
    .command('contract')
    .description("write CONTRACT.md, the agent skill and contract.json from the rules' meta, the locked conventions, the accepted entries and the committed outlines")
    .option('--check', 'write nothing; exit 1 when a committed file differs from what drift would write')
    .action(async (options: { check?: boolean }, command: Command) => {
      const project = await fullProject(command);
      const store = ContractStore.of(project);
      const shown = shownIn(store);
      if (options.check) {
        const stale = store.stale(generatedContract(project, loadAccepted(project)));
        for (const file of stale) process.stdout.write(`stale   ${shown(file)}\n`);
        if (stale.length) {
          process.stdout.write('run `drift contract` and commit the result\n');
          process.exitCode = 1;
        } else process.stdout.write(`the contract in ${shown('.')} is current\n`);
        return;
      }
      const changed = writeContract(project);
      for (const file of changed) process.stdout.write(`written ${file}\n`);
      if (!changed.length) process.stdout.write(`the contract in ${shown('.')} is current\n`);
    });
}
