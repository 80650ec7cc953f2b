import type { Invocation } from './io.js';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { AcceptedEntry } from '../compare/acceptance.js';
import type { Finding } from '../compare/findings.js';
import { packageFile } from '../config/paths.js';
import { DriftError } from '../errors.js';
import { fullProject, shownPath } from './context.js';

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
      // Loaded when the command runs, not at start: `drift --version` and `--help` need none of it.
      const [{ underLock }, { appendAcceptedEntry }, { acceptedPath }, { GoldenStore, refuseUnderCI }, { writeContract }] = await Promise.all([
        import('./fileLock.js'),
        import('../config/acceptedText.js'),
        import('../goldens/acceptedStore.js'),
        import('../goldens/store.js'),
        import('./contractWrite.js'),
      ]);
      refuseUnderCI(project.env);
      const file = acceptedPath(project);
      const shown = shownPath(cli, file);
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
