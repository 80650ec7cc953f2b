import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { isSeq, parseDocument } from 'yaml';
import { acceptedPath, loadAccepted } from '../check.js';
import { DriftError } from '../errors.js';
import { GoldenStore } from '../goldens/store.js';
import { fullProject } from './context.js';

const FINDING_ID = /^(div|split|rule):.+$/;

export function registerAccept(program: Command): void {
  program
    .command('accept <finding-id>')
    .description('accept a divergence, split or rule finding by id: append it with a reason to goldens/accepted.yaml')
    .requiredOption('-r, --reason <text>', 'why the difference is intended')
    .action(async (id: string, options: { reason: string }, command: Command) => {
      if (!FINDING_ID.test(id)) throw new DriftError(`"${id}" is not a divergence, split or rule finding id (div:…, split:… or rule:…); copy it from drift diff's output. Golden changes are accepted with drift update.`);
      if (options.reason.trim().length < 3) throw new DriftError('--reason must say why the difference is intended');
      const project = await fullProject(command);
      const file = acceptedPath(project);
      if (loadAccepted(project).some((entry) => entry.id === id)) {
        process.stdout.write(`${id} is already accepted in ${path.relative(process.cwd(), file)}\n`);
        return;
      }
      // Edit the document, not the data, so the file's comments and layout survive.
      const document = parseDocument(existsSync(file) ? readFileSync(file, 'utf8') : 'accepted: []\n');
      const list = document.get('accepted', true);
      if (isSeq(list)) {
        list.flow = false;
        list.add(document.createNode({ id, reason: options.reason.trim() }));
      } else document.set('accepted', [{ id, reason: options.reason.trim() }]);
      GoldenStore.of(project).writeAccepted(document.toString({ lineWidth: 0 }));
      process.stdout.write(`accepted ${id} in ${path.relative(process.cwd(), file)}\n`);
      process.stdout.write('drift diff lists it under accepted; if the id matches no finding it reports the entry as stale.\n');
    });
}
