import type { Command } from 'commander';
import { refuseUnless } from '../util/ci.js';
import { DriftError } from '../errors.js';
import { fullProject, globalOptions, shownPath } from './context.js';
import type { Invocation } from './io.js';
import { progressFor } from './progress.js';

export function registerMigrate(program: Command, cli: Invocation): void {
  program
    .command('migrate')
    .description(
      'rewrite goldens/accepted.yaml for this drift: ids of an older drift that named the scenario get the current id with that scenario beside it; each entry that accepts a facet for every provider gets the ways the providers take today (rendered now), so a provider that joins or leaves one is told. Idempotent',
    )
    .action(async (_options: unknown, command: Command) => {
      const project = await fullProject(command, cli);
      const [{ underLock }, { replaceAcceptedEntries }, { acceptedPath, loadAccepted }, { GoldenStore }, { writeContract }, { migrateProject }, { describeEntry, isLegacy }, { migrateAcceptedIds }] = await Promise.all([
        import('./fileLock.js'),
        import('../config/acceptedText.js'),
        import('../goldens/acceptedStore.js'),
        import('../goldens/store.js'),
        import('./contractWrite.js'),
        import('../pipeline/migrateRun.js'),
        import('../compare/acceptance.js'),
        import('../pipeline/migrateIds.js'),
      ]);
      refuseUnless(project.policy.write, 'accepted');
      refuseUnless(project.policy.write, 'goldens');
      const file = acceptedPath(project);
      const shown = shownPath(cli, file);
      // Ids first: they need no render, and an entry's scope must be read right before its ways are.
      const scenarios = new Set(project.scenarios.map((scenario) => scenario.name));
      const store = GoldenStore.of(project);
      const rewrites = store.read('accepted.yaml') === undefined
        ? []
        : await underLock(file, shown, () => {
            const { text, rewrites: done } = migrateAcceptedIds(store.read('accepted.yaml') ?? '', scenarios, shown);
            if (done.length) store.writeAccepted(text);
            return done;
          });
      for (const rewrite of rewrites) cli.io.stdout.write(`entry ${rewrite.entry} (line ${rewrite.line}): ${rewrite.from} is now ${rewrite.to}, kept to scenario ${rewrite.scenario}\n`);
      const entries = loadAccepted(project);
      if (!entries.some(isLegacy)) {
        if (rewrites.length) {
          cli.io.stdout.write(`written ${shown}\n`);
          for (const written of writeContract(cli, project, { ifAdopted: true })) cli.io.stdout.write(`written ${written}\n`);
        } else cli.io.stdout.write(`${shown}: nothing to migrate (every id is current; every entry names its providers, its id or its ways)\n`);
        return;
      }
      const progress = progressFor(cli, project.adapters.map((adapter) => adapter.name), globalOptions(command).verbose);
      const { migrations, errors } = await migrateProject(project, entries, progress.onEvent);
      progress.done();
      // Ways read from a render that failed would pin the failure: nothing is written then.
      if (errors.length) throw new DriftError(`cannot pin the ways of ${shown} from a render that failed: ${errors.join('; ')}. Nothing changed.`);
      const replacements = new Map(migrations.filter((migration) => migration.entries.some((entry) => !isLegacy(entry))).map((migration) => [migration.index, migration.entries]));
      await underLock(file, shown, () => {
        const text = store.read('accepted.yaml');
        if (text === undefined) throw new DriftError(`${shown} disappeared while drift rendered. Nothing changed.`);
        store.writeAccepted(replaceAcceptedEntries(text, replacements, shown));
      });
      for (const { index, entries: pinned } of migrations) {
        const before = describeEntry(entries[index]!);
        if (pinned.every(isLegacy)) {
          cli.io.stdout.write(`entry ${index + 1} (${before}): accepts nothing today, left as it is; remove it if what it accepted is gone\n`);
          continue;
        }
        for (const entry of pinned) {
          const scenarios = new Set((entry.ways ?? []).flatMap((way) => way.scenarios));
          cli.io.stdout.write(`entry ${index + 1} (${before}): ${entry.subject} pinned, ${entry.ways!.length} ways over ${scenarios.size} scenario${scenarios.size === 1 ? '' : 's'}\n`);
        }
      }
      cli.io.stdout.write(`written ${shown}\n`);
      for (const written of writeContract(cli, project, { ifAdopted: true })) cli.io.stdout.write(`written ${written}\n`);
    });
}
