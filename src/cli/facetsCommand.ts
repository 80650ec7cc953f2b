import type { Command } from 'commander';
import type { Invocation } from './io.js';

export function registerFacets(program: Command, cli: Invocation): void {
  program
    .command('facets')
    .description('print the facets drift compares across providers: class, source, what each compares, its fix')
    .action(async () => {
      const [{ FACETS }, { facetsText }] = await Promise.all([import('../facets/registry.js'), import('../report/facetsText.js')]);
      cli.io.stdout.write(facetsText(FACETS));
    });
}
