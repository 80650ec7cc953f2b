/** Writing the generated contract: what `drift contract`, `accept`, `lock` and `unlock` share. */
import path from 'node:path';
import type { Project } from '../config/types.js';
import { loadAccepted } from '../goldens/acceptedStore.js';
import { ContractStore } from '../goldens/contractStore.js';
import { GoldenStore } from '../goldens/store.js';
import { refuseUnless } from '../util/ci.js';
import { generatedContract } from '../pipeline/contractRun.js';
import type { Invocation } from './io.js';
import { reportSwept } from './progress.js';

export const shownIn = (cli: Invocation, store: ContractStore) => (file: string) => path.relative(cli.io.cwd, path.join(store.dir, file)) || '.';

/** Writes the project's generated contract (never under CI); returns the files it changed, as the user sees them. */
export function writeContract(cli: Invocation, project: Project, options: { ifAdopted?: boolean } = {}): string[] {
  const store = ContractStore.of(project);
  const files = generatedContract(project, loadAccepted(project));
  // drift update keeps a contract the project has adopted current; it never starts one.
  if (options.ifAdopted && !store.adopted(files)) return [];
  if (store.stale(files).length) refuseUnless(project.policy.write, 'contract');
  // What a killed write left behind goes first (goldens and the contract's folder), whatever changes.
  reportSwept(cli, GoldenStore.of(project).sweep(), project);
  return store.write(files).map(shownIn(cli, store));
}
