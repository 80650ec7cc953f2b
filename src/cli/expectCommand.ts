import { Option, type Command } from 'commander';
import type { ExpectLine, Status } from '../compare/requirements.js';
import type { Invocation } from './io.js';
import { checkName } from '../config/names.js';
import { collect, fullProject, globalOptions } from './context.js';
import { progressFor } from './progress.js';

interface ExpectOptions {
  provider: string;
  unmet?: boolean;
  scenario: string[];
  format: 'yaml' | 'json';
}

/** What `drift expect` prints (YAML or JSON): the counts once the provider rendered, then its requirement lines. */
export interface ExpectDocument {
  provider: string;
  met?: number;
  'not met'?: number;
  accepted?: number;
  rendered?: false;
  notes?: string[];
  requirements: ExpectLine[];
}

/** YAML with each line's scenarios on one line, so a requirement reads in a few lines. */
async function asYaml(document: object): Promise<string> {
  const { Document, isPair, isScalar, visit } = await import('yaml');
  const yaml = new Document(document);
  visit(yaml, {
    Seq(_key, node, path) {
      const parent = path.at(-1);
      if (isPair(parent) && isScalar(parent.key) && (parent.key.value === 'scenarios' || parent.key.value === 'notMetIn')) node.flow = true;
    },
  });
  return yaml.toString({ lineWidth: 0 });
}

export function registerExpect(program: Command, cli: Invocation): void {
  program
    .command('expect')
    .description(
      'what `drift diff -p NAME` holds one provider to (the others\' conventions, accepted ways, locked conventions, contract rules, style conventions): one line per requirement with its scenarios; with the provider present, whether it meets each',
    )
    .requiredOption('-p, --provider <name>', 'the provider (it takes no part in the vote)')
    .option('-s, --scenario <name>', 'only this scenario (repeatable), as drift diff -s', collect, [])
    .option('--unmet', 'only the requirements not met: exactly what drift diff -p fails on')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['yaml', 'json']).default('yaml'))
    .action(async (options: ExpectOptions, command: Command) => {
      checkName(options.provider, 'provider');
      const full = await fullProject(command, cli);
      const { expectProject } = await import('../pipeline/conventionRun.js');
      const progress = progressFor(cli, [options.provider], globalOptions(command).verbose);
      const { provider, rendered, lines, notes } = await expectProject(full, options.provider, { scenarios: options.scenario, onEvent: progress.onEvent });
      progress.done();
      const count = (status: Status) => lines.filter((line) => line.status === status).length;
      const shown: ExpectLine[] = options.unmet ? lines.filter((line) => line.status === 'not met') : lines;
      const document: ExpectDocument = {
        provider,
        ...(rendered ? { met: count('met'), 'not met': count('not met'), accepted: count('accepted') } : { rendered: false }),
        ...(notes.length ? { notes } : {}),
        requirements: shown,
      };
      cli.io.stdout.write(options.format === 'json' ? `${JSON.stringify(document, null, 2)}\n` : await asYaml(document));
      // Accepted lines do not fail, as drift diff lists their findings under accepted.
      cli.code = count('not met') ? 1 : 0;
    });
}
