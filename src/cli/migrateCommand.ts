import type { Command } from 'commander';
import type { AcceptedEntry } from '../compare/acceptance.js';
import type { Project } from '../config/types.js';
import { refuseUnless } from '../util/ci.js';
import { DriftError } from '../errors.js';
import { globalOptions, runCachePolicy, shownPath } from './context.js';
import type { Invocation } from './io.js';
import { progressFor } from './progress.js';

/** Every configuration `-c` named (the default one when none), loaded; they must share one accepted list. */
async function projectsOf(command: Command, cli: Invocation): Promise<Project[]> {
  const globals = globalOptions(command);
  const [{ loadProject, withRunOptions }, { acceptedPath }] = await Promise.all([import('../config/load.js'), import('../goldens/acceptedStore.js')]);
  const configs = cli.configs?.length ? [...new Set(cli.configs)] : [undefined];
  const projects: Project[] = [];
  for (const config of configs) {
    const project = await loadProject(config, cli.io.cwd, cli.io.env, cli.policy, runCachePolicy(command, cli));
    for (const warning of project.warnings ?? []) cli.io.stderr.write(`${warning}\n`);
    projects.push(withRunOptions(project, { concurrency: globals.concurrency }));
  }
  const lists = projects.map((project) => acceptedPath(project));
  const other = lists.findIndex((list) => list !== lists[0]);
  if (other > 0) {
    throw new DriftError(`--config ${configs[0]} and --config ${configs[other]} keep different accepted lists (${shownPath(cli, acceptedPath(projects[0]!))}, ${shownPath(cli, acceptedPath(projects[other]!))}): migrate each list with the configurations that share it. Nothing changed.`);
  }
  return projects;
}

export function registerMigrate(program: Command, cli: Invocation): void {
  program
    .command('migrate')
    .description(
      'rewrite goldens/accepted.yaml for this drift: ids of an older drift that named the scenario get the current id with that scenario beside it, ids it spelled with spaces or brackets are respelled; each entry that accepts a facet for every provider gets the ways the providers take today (rendered now, under every -c configuration that shares the list), so a provider that joins or leaves one is told. Checks everything before it writes; idempotent',
    )
    .action(async (_options: unknown, command: Command) => {
      const projects = await projectsOf(command, cli);
      const project = projects[0]!;
      const [{ underLock }, { replaceAcceptedEntries }, { acceptedPath, loadAccepted }, { GoldenStore }, { writeContract }, { migrateProject }, { describeEntry, isLegacy }, { migrateAcceptedIds }, { holdingWrites }] = await Promise.all([
        import('./fileLock.js'),
        import('../config/acceptedText.js'),
        import('../goldens/acceptedStore.js'),
        import('../goldens/store.js'),
        import('./contractWrite.js'),
        import('../pipeline/migrateRun.js'),
        import('../compare/acceptance.js'),
        import('../pipeline/migrateIds.js'),
        import('../goldens/atomicFile.js'),
      ]);
      for (const one of projects) {
        refuseUnless(one.policy.write, 'accepted');
        refuseUnless(one.policy.write, 'goldens');
      }
      const file = acceptedPath(project);
      const shown = shownPath(cli, file);
      const store = GoldenStore.of(project);
      const original = store.read('accepted.yaml');
      if (original === undefined) {
        cli.io.stdout.write(`${shown}: nothing to migrate (there is no accepted list)\n`);
        return;
      }
      // Everything is checked before anything is written: the size, nesting and YAML limits and the
      // schema (loadAccepted, with file:line:col), then every id, then the rewrite reading back.
      const read = loadAccepted(project);
      const scenarios = new Set(projects.flatMap((one) => one.scenarios.map((scenario) => scenario.name)));
      const { text: withIds, rewrites } = migrateAcceptedIds(original, scenarios, shown);
      // The entries as the rewritten text holds them (migrateAcceptedIds read it back): no third parse of a large list.
      const renamed = new Map(rewrites.map((rewrite) => [rewrite.entry - 1, rewrite]));
      const entries = read.map((entry, index) => {
        const rewrite = renamed.get(index);
        return rewrite ? { ...entry, id: rewrite.to, ...(rewrite.scenario !== undefined ? { scenario: rewrite.scenario } : {}) } : entry;
      });
      let text = withIds;
      const unmapped: number[] = [];
      const pinnedNow: Array<{ index: number; pinned: AcceptedEntry[] }> = [];
      if (entries.some(isLegacy)) {
        const progress = progressFor(cli, [...new Set(projects.flatMap((one) => one.adapters.map((adapter) => adapter.name)))], globalOptions(command).verbose);
        const { migrations, errors } = await migrateProject(projects, entries, progress.onEvent);
        progress.done();
        // Ways read from a render that failed would pin the failure: nothing is written then.
        if (errors.length) throw new DriftError(`cannot pin the ways of ${shown} from a render that failed: ${errors.join('; ')}. Nothing changed.`);
        const replacements = new Map<number, object[]>();
        for (const { index, entries: pinned } of migrations) {
          if (pinned.every(isLegacy)) unmapped.push(index);
          else {
            replacements.set(index, pinned);
            pinnedNow.push({ index, pinned });
          }
        }
        if (replacements.size) text = replaceAcceptedEntries(withIds, replacements, shown);
      }
      for (const index of unmapped) {
        cli.io.stderr.write(`warning: entry ${index + 1} of ${shown} (${describeEntry(entries[index]!)}) accepts nothing today${projects.length > 1 ? ' under any of the configurations' : ''}, so it has no ways to pin; it is left as it is: remove it if what it accepted is gone\n`);
      }
      if (text === original) {
        cli.io.stdout.write(`${shown}: nothing to migrate (every id is current; every entry names its providers, its id or its ways${unmapped.length ? `, but for ${unmapped.length} that accept${unmapped.length === 1 ? 's' : ''} nothing` : ''})\n`);
        return;
      }
      // From the lock to the contract: a signal during them ends drift once both are written whole.
      await holdingWrites(async () => {
        await underLock(file, shown, () => {
          if (store.read('accepted.yaml') !== original) throw new DriftError(`${shown} changed while drift rendered; run drift migrate again. Nothing changed.`);
          store.writeAccepted(text);
        });
        for (const rewrite of rewrites) cli.io.stdout.write(`entry ${rewrite.entry} (line ${rewrite.line}): ${rewrite.from} is now ${rewrite.to}${rewrite.scenario !== undefined ? `, kept to scenario ${rewrite.scenario}` : ', respelled as drift prints it now'}\n`);
        for (const { index, pinned } of pinnedNow) {
          const before = describeEntry(entries[index]!);
          for (const entry of pinned) {
            const covered = new Set((entry.ways ?? []).flatMap((way) => way.scenarios));
            cli.io.stdout.write(`entry ${index + 1} (${before}): ${entry.subject} pinned, ${entry.ways!.length} ways over ${covered.size} scenario${covered.size === 1 ? '' : 's'}\n`);
          }
        }
        cli.io.stdout.write(`written ${shown}\n`);
        const contracts = new Set<string>();
        for (const one of projects) for (const written of writeContract(cli, one, { ifAdopted: true })) contracts.add(written);
        for (const written of contracts) cli.io.stdout.write(`written ${written}\n`);
      });
    });
}
