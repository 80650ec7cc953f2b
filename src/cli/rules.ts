import type { Command } from 'commander';

export function registerRules(program: Command): void {
  program
    .command('rules')
    .description('print the contract rules every provider must satisfy')
    .action(async () => {
      const { RULES } = await import('../compare/rules/index.js');
      const lines = RULES.map((rule) => `${rule.id}\n  ${rule.description}\n  why: ${rule.rationale}`);
      process.stdout.write(`${lines.join('\n\n')}\n`);
    });
}
