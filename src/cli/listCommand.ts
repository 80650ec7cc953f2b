import path from 'node:path';
import type { Command } from 'commander';
import { projectFor } from './context.js';

export function registerList(program: Command): void {
  program
    .command('list')
    .description('list the providers and scenarios drift finds')
    .action(async (_options, command: Command) => {
      const project = await projectFor(command);
      const rel = (file: string) => path.relative(process.cwd(), file) || file;
      const lines = ['providers:'];
      for (const adapter of project.adapters) lines.push(`  ${adapter.name.padEnd(16)} ${adapter.xr.kind.padEnd(18)} ${rel(adapter.file)}`);
      lines.push('scenarios:');
      for (const scenario of project.scenarios) lines.push(`  ${scenario.name.padEnd(20)} ${scenario.description}`);
      process.stdout.write(`${lines.join('\n')}\n`);
    });
}
