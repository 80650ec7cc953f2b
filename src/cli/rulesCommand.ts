import type { Command } from 'commander';
import type { Invocation } from './io.js';

export function registerRules(program: Command, cli: Invocation): void {
  program
    .command('rules')
    .description('print the contract rules every provider must satisfy')
    .action(async () => {
      const [{ RULE_METAS }, { rulesText }] = await Promise.all([import('../compare/rules/index.js'), import('../report/rulesText.js')]);
      cli.io.stdout.write(rulesText(RULE_METAS));
    });
}
