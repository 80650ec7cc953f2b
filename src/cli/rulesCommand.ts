import type { Command } from 'commander';

export function registerRules(program: Command): void {
  program
    .command('rules')
    .description('print the contract rules every provider must satisfy')
    .action(async () => {
      const [{ RULE_METAS }, { rulesText }] = await Promise.all([import('../compare/rules/index.js'), import('../report/rulesText.js')]);
      process.stdout.write(rulesText(RULE_METAS));
    });
}
