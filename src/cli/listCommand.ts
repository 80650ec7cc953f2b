import type { Command } from 'commander';
import type { Invocation } from './io.js';
import { projectFor, shownPath } from './context.js';

export function registerList(program: Command, cli: Invocation): void {
  program
    .command('list')
    .description('list the providers and scenarios drift finds')
    .action(async (_options, command: Command) => {
      const project = await projectFor(command, cli);
      const lines = ['providers:'];
      for (const adapter of project.adapters) lines.push(`  ${adapter.name.padEnd(16)} ${adapter.xr.kind.padEnd(18)} ${shownPath(cli, adapter.file)}`);
      lines.push('scenarios:');
      for (const scenario of project.scenarios) lines.push(`  ${scenario.name.padEnd(20)} ${scenario.description}`);
      cli.io.stdout.write(`${lines.join('\n')}\n`);
    });
}
