import { composerOf } from '../../outline/outline.js';
import type { FacetMeta } from '../meta.js';
import { subjectOf, type AddFacet, type SourceFamily, type SourceSubject } from './subject.js';

/** Where the condition that holds back each contract role's composition is checked (`gate-placement`). */

/** Where these facets' values come from. */
const SOURCE = { source: 'outline', scope: 'source', extractor: 'src/facets/source/gatePlacement.ts' } as const;

const META: readonly FacetMeta[] = [
  {
    id: 'gate-placement',
    class: 'stylistic',
    ...SOURCE,
    description: 'Where the gate holding back a role’s composition is checked.',
    compares: '`composer: if`, `composer: early return`, `call site: if`, and whether a helper of the provider decides the condition',
    example: 'acme gates the node pools at the call site in compose() where the others check inside compose_node_pools',
    fix: 'check the condition where the convention does',
  },
];

function extract(subjects: readonly SourceSubject[], add: AddFacet): void {
  for (const subject of subjects) {
    const { provider, outline } = subject;
    // Gate placement, per contract role: where the condition that holds back its composition is checked.
    const byRole = new Map<string, { text: string; pattern: string }>();
    for (const [key, role] of [...subject.keys].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const found = composerOf(outline, key);
      const gate = found ? outline.gates[found.pattern] : undefined;
      if (gate && !byRole.has(role)) byRole.set(role, { text: gate, pattern: found!.pattern });
    }
    for (const [role, gate] of byRole) {
      add(
        provider,
        {
          subject: role,
          facet: 'gate-placement',
          describe: `where the gate of ${role} is checked`,
          placeKey: (p) => {
            const other = subjectOf(subjects, p);
            for (const [key, r] of other.keys) {
              const found = r === role ? composerOf(other.outline, key) : undefined;
              if (found && other.outline.gates[found.pattern]) return `gate:${found.pattern}`;
            }
            return '';
          },
        },
        gate.text,
      );
    }

  }
}

export const GATES: SourceFamily = { meta: META, extract };
