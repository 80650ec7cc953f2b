import type { Invocation } from './io.js';
import { refuseUnless } from '../util/ci.js';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { AcceptedEntry } from '../compare/acceptance.js';
import type { Finding } from '../compare/findings.js';
import { packageFile } from '../config/paths.js';
import { DriftError } from '../errors.js';
import type { Project } from '../config/types.js';
import { fullProject, globalOptions, shownPath } from './context.js';

const FINDING_ID = /^(div|split|rule):.+$/;

/** Refuses an id that an entry of the file already covers, by id or by facet, naming that entry. */
async function refuseIfCovered(file: string, shown: string, text: string | undefined, id: string): Promise<void> {
  if (text === undefined) return;
  const [{ readLocatedYamlFile }, { factsOfId }, { describeEntry, matches }] = await Promise.all([import('../config/yamlFile.js'), import('../compare/findingId.js'), import('../compare/acceptance.js')]);
  const { data, locate } = readLocatedYamlFile<{ accepted: AcceptedEntry[] }>(file, packageFile('schemas/accepted.schema.json'), text);
  const finding = (factsOfId(id) ?? { id }) as Finding;
  const index = data.accepted.findIndex((entry) => matches(entry, finding));
  if (index < 0) return;
  const { line } = locate(['accepted', index]);
  const entry = data.accepted[index]!;
  throw new DriftError(`${id} is already accepted by entry ${index + 1} of ${shown} (line ${line}: ${describeEntry(entry)}; reason: ${entry.reason}): a second entry would be stale at once. Nothing changed.`);
}

/**
 * `drift accept` of a divergence on a facet whose ways an entry pins: the provider is rendered and
 * pinned to the way it takes, with its own reason. False when no entry pins the facet.
 */
async function acceptedOntoWays(cli: Invocation, command: Command, project: Project, file: string, shown: string, id: string, reason: string): Promise<boolean> {
  const [{ factsOfId }, { loadAccepted }, { pinnedEntryFor, repinProvider }, { underLock }, { replaceAcceptedEntries }, { GoldenStore }, { progressFor }] = await Promise.all([
    import('../compare/findingId.js'),
    import('../goldens/acceptedStore.js'),
    import('../pipeline/migrateRun.js'),
    import('./fileLock.js'),
    import('../config/acceptedText.js'),
    import('../goldens/store.js'),
    import('./progress.js'),
  ]);
  const facts = factsOfId(id);
  if (facts?.type !== 'divergence' || !facts.provider) return false;
  const entries = loadAccepted(project);
  const index = pinnedEntryFor(entries, facts.subject, facts.facet!);
  if (index < 0) return false;
  if (!project.adapters.some((adapter) => adapter.name === facts.provider)) throw new DriftError(`${id} names ${facts.provider}, which is not a provider of this project. Nothing changed.`);
  const progress = progressFor(cli, [facts.provider], globalOptions(command).verbose);
  let repinned: AcceptedEntry;
  try {
    repinned = await repinProvider(project, entries[index]!, facts.provider, reason, progress.onEvent);
  } catch (error) {
    throw new DriftError(`${(error as Error).message}. Nothing changed.`);
  } finally {
    progress.done();
  }
  await underLock(file, shown, () => {
    const store = GoldenStore.of(project);
    const text = store.read('accepted.yaml');
    if (text === undefined) throw new DriftError(`${shown} disappeared while drift rendered. Nothing changed.`);
    store.writeAccepted(replaceAcceptedEntries(text, new Map([[index, [repinned]]]), shown));
  });
  const held = (repinned.ways ?? []).filter((way) => way.providers.includes(facts.provider!));
  const scenarios = new Set(held.flatMap((way) => way.scenarios));
  cli.io.stdout.write(`accepted ${facts.provider} onto entry ${index + 1} of ${shown} (${repinned.subject} ${repinned.facet}): it holds ${held.length} way${held.length === 1 ? '' : 's'} over ${scenarios.size} scenario${scenarios.size === 1 ? '' : 's'}, with its own reason\n`);
  return true;
}

const readIfThere = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);

export function registerAccept(program: Command, cli: Invocation): void {
  program
    .command('accept <finding-id>')
    .description('accept a divergence, split or rule finding by id: append it with a reason to goldens/accepted.yaml')
    .requiredOption('-r, --reason <text>', 'why the difference is intended')
    .action(async (id: string, options: { reason: string }, command: Command) => {
      if (!FINDING_ID.test(id)) throw new DriftError(`"${id}" is not a divergence, split or rule finding id (div:…, split:… or rule:…); copy it from drift diff's output. Golden changes are accepted with drift update.`);
      const reason = options.reason.trim();
      if (reason.length < 3) throw new DriftError('--reason must say why the difference is intended');
      const project = await fullProject(command, cli);
      const { legacyIdOf } = await import('../compare/findingId.js');
      const legacy = legacyIdOf(id, new Set(project.scenarios.map((scenario) => scenario.name)));
      if (legacy) throw new DriftError(`"${id}" is an id of an older drift, which named the scenario; this drift reports it as ${legacy.id} (one finding for every scenario that shows it): accept that id, or run \`drift migrate\` to rewrite the ids already in goldens/accepted.yaml. Nothing changed.`);
      // Loaded when the command runs, not at start: `drift --version` and `--help` need none of it.
      const [{ underLock }, { appendAcceptedEntry }, { acceptedPath }, { GoldenStore }, { writeContract }] = await Promise.all([
        import('./fileLock.js'),
        import('../config/acceptedText.js'),
        import('../goldens/acceptedStore.js'),
        import('../goldens/store.js'),
        import('./contractWrite.js'),
      ]);
      refuseUnless(project.policy.write, 'accepted');
      const file = acceptedPath(project);
      const shown = shownPath(cli, file);
      // A provider that joined, left or broke the ways an accepted split pins is added to that entry.
      if (await acceptedOntoWays(cli, command, project, file, shown, id, reason)) {
        for (const written of writeContract(cli, project)) cli.io.stdout.write(`written ${written}\n`);
        return;
      }
      // Checked before anything is created on disk, and again under the lock, where it counts.
      await refuseIfCovered(file, shown, readIfThere(file), id);
      mkdirSync(path.dirname(file), { recursive: true });
      await underLock(file, shown, async () => {
        const text = readIfThere(file);
        await refuseIfCovered(file, shown, text, id);
        GoldenStore.of(project).writeAccepted(appendAcceptedEntry(text, { id, reason }, shown));
      });
      cli.io.stdout.write(`accepted ${id} in ${shown}\n`);
      // The contract lists accepted entries with their reasons: it changes with them.
      for (const written of writeContract(cli, project)) cli.io.stdout.write(`written ${written}\n`);
      cli.io.stdout.write('drift diff lists it under accepted; if the id matches no finding it reports the entry as stale.\n');
    });
}
