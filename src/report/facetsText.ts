import type { FacetMeta } from '../facets/meta.js';

/** `drift facets`: each facet's id, class and source, what it is and what is compared. */
export function facetsText(facets: readonly FacetMeta[]): string {
  const blocks = facets.map((facet) =>
    [`${facet.id} (${facet.class}, ${facet.source}, per ${facet.scope})`, `  ${facet.description}`, `  compares: ${facet.compares}`, `  example: ${facet.example}`, `  fix: ${facet.fix}`].join('\n'),
  );
  return `${blocks.join('\n\n')}\n`;
}

/** docs/facets.md: one table per source, generated from the registry. */
export function facetsMarkdown(facets: readonly FacetMeta[]): string {
  const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
  const sections = (['skeleton', 'outline'] as const).map((source) => {
    const rows = facets.filter((facet) => facet.source === source).map((facet) => `| \`${facet.id}\` | ${facet.class} | ${facet.scope} | ${cell(facet.description)} | ${cell(facet.compares)} | ${cell(facet.fix)} |`);
    const title = source === 'skeleton' ? 'Rendered facets (from the skeleton)' : 'Source facets (from the outline)';
    return [`## ${title}`, '', '| facet | class | per | what it is | what is compared | fix |', '|---|---|---|---|---|---|', ...rows].join('\n');
  });
  return `# Facets\n\n<!-- generated from src/facets/registry.ts by \`npm run docs\`; do not edit -->\n\nEvery facet drift compares across providers: conventions, splits, locks and accepted entries are about these. \`drift facets\` prints the same table.\n\n${sections.join('\n\n')}\n`;
}
