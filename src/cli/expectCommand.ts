import type { Command } from 'commander';
import type { Expectation } from '../compare/expectations.js';
import type { Invocation } from './io.js';
import { checkName } from '../config/names.js';
import { compareText } from '../util/objects.js';
import { fullProject, globalOptions } from './context.js';
import { progressFor } from './progress.js';

type Line = Omit<Expectation, 'scenario' | 'subject' | 'facet'>;

/** scenario → subject → facet → what is expected, for an agent to read before writing code. */
function asTree(expectations: readonly Expectation[]): Record<string, Record<string, Record<string, Line>>> {
  const tree: Record<string, Record<string, Record<string, Line>>> = {};
  const key = (e: Expectation) => `${e.scenario}\u0000${e.subject}\u0000${e.facet}`;
  for (const { scenario, subject, facet, ...rest } of [...expectations].sort((a, b) => compareText(key(a), key(b)))) ((tree[scenario] ??= {})[subject] ??= {})[facet] = rest;
  return tree;
}

export function registerExpect(program: Command, cli: Invocation): void {
  program
    .command('expect')
    .description("what the other providers' conventions and the locked conventions require of one provider, per scenario, subject and facet (YAML); with the provider present, whether it meets each")
    .requiredOption('-p, --provider <name>', 'the provider (it takes no part in the vote)')
    .action(async (options: { provider: string }, command: Command) => {
      checkName(options.provider, 'provider');
      const full = await fullProject(command, cli);
      const [{ expectProject }, { stringify }] = await Promise.all([import('../pipeline/conventionRun.js'), import('yaml')]);
      const progress = progressFor(cli, [options.provider], globalOptions(command).verbose);
      const { provider, rendered, expectations } = await expectProject(full, options.provider, progress.onEvent);
      progress.done();
      const count = (status: Expectation['status']) => expectations.filter((expectation) => expectation.status === status).length;
      const document = {
        provider,
        ...(rendered ? { met: count('met'), 'not met': count('not met'), accepted: count('accepted') } : { rendered: false }),
        scenarios: asTree(expectations),
      };
      cli.io.stdout.write(stringify(document, { lineWidth: 0 }));
      cli.code = count('not met') ? 1 : 0;
    });
}
