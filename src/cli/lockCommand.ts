import type { Command } from 'commander';
import { refuseUnless } from '../util/ci.js';
import type { Invocation } from './io.js';
import { checkSubject } from '../config/names.js';
import { DriftError } from '../errors.js';
import { fullProject, shownPath } from './context.js';

/** Loaded when a command runs: `drift --version` and every other command need none of it. */
const editing = async () => {
  const [{ ConventionStore }, { lockableCandidate }, { writeContract }, { underLock }, { holdingWrites }] = await Promise.all([
    import('../goldens/conventionStore.js'),
    import('../pipeline/conventionRun.js'),
    import('./contractWrite.js'),
    import('./fileLock.js'),
    import('../goldens/atomicFile.js'),
  ]);
  return { ConventionStore, lockableCandidate, writeContract, underLock, holdingWrites };
};

export function registerLock(program: Command, cli: Invocation): void {
  program
    .command('lock <facet>')
    .description('lock a candidate convention (a facet every provider agrees on, per the goldens) in goldens/conventions.yaml: from then on every provider is held to it')
    .option('-s, --subject <subject>', 'the role or subject (node-pool, kubeconfig, status, ...); needed when the facet has several')
    .requiredOption('-r, --reason <text>', 'why every provider must hold to it')
    .action(async (facet: string, options: { subject?: string; reason: string }, command: Command) => {
      const reason = options.reason.trim();
      if (reason.length < 3) throw new DriftError('--reason must say why every provider must hold to the convention');
      if (options.subject !== undefined) checkSubject(options.subject);
      const project = await fullProject(command, cli);
      const { ConventionStore, lockableCandidate, writeContract, underLock, holdingWrites } = await editing();
      refuseUnless(project.policy.write, 'goldens');
      const candidate = lockableCandidate(project, facet, options.subject);
      const store = ConventionStore.of(project);
      const shown = shownPath(cli, store.file);
      // From the lock to the contract: a signal during them ends drift once both are written whole.
      await holdingWrites(async () => {
        await underLock(store.file, shown, () => {
          const text = store.read();
          const existing = store.find(text, candidate.facet, candidate.subject);
          if (existing) throw new DriftError(`${candidate.subject} ${candidate.facet} is already locked by entry ${existing.index + 1} of ${shown} (line ${existing.line}); drift unlock it first to lock it again. Nothing changed.`);
          store.lock(text, { facet: candidate.facet, subject: candidate.subject, values: candidate.values, reason }, shown);
        });
        cli.io.stdout.write(`locked ${candidate.subject} ${candidate.facet} (${candidate.words}) in ${shown}\n`);
        for (const written of writeContract(cli, project, { ifAdopted: true })) cli.io.stdout.write(`written ${written}\n`);
      });
    });

  program
    .command('unlock <facet>')
    .description('remove a locked convention from goldens/conventions.yaml')
    .requiredOption('-s, --subject <subject>', 'the role or subject it was locked for')
    .action(async (facet: string, options: { subject: string }, command: Command) => {
      checkSubject(options.subject);
      const project = await fullProject(command, cli);
      const { ConventionStore, writeContract, underLock, holdingWrites } = await editing();
      refuseUnless(project.policy.write, 'goldens');
      const store = ConventionStore.of(project);
      const shown = shownPath(cli, store.file);
      const text = store.read();
      if (text === undefined) throw new DriftError(`no convention is locked on ${facet} of ${options.subject}: ${shown} does not exist`);
      await holdingWrites(async () => {
        await underLock(store.file, shown, () => {
          const current = store.read()!;
          const existing = store.find(current, facet, options.subject);
          if (!existing) throw new DriftError(`no convention is locked on ${facet} of ${options.subject} in ${shown}. Nothing changed.`);
          store.unlock(current, existing.index, shown);
        });
        cli.io.stdout.write(`unlocked ${options.subject} ${facet} in ${shown}\n`);
        for (const written of writeContract(cli, project, { ifAdopted: true })) cli.io.stdout.write(`written ${written}\n`);
      });
    });
}
