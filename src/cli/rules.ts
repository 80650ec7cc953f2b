import type { Command } from 'commander';
import { RULE_METAS } from '../compare/rules/index.js';
import { rulesText } from '../report/rules.js';

export function registerRules(program: Command): void {
  program
    .command('rules')
    .description('print the contract rules every provider must satisfy')
    .action(() => {
      process.stdout.write(rulesText(RULE_METAS));
    });
}
