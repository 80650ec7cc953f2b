import type { AcceptedEntry } from '../../compare/acceptance.js';
import { generatedNotice } from './notice.js';
import { acceptedSubject, CONTRACT_FILES, linkFrom, lockedWords, sortedAccepted, sortedLocked, type ContractInput } from './contractModel.js';

/** One line of markdown text: a value with a line break or pipe would break a list item or table cell. */
const inline = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');

/** CONTRACT.md: what every implementation must expose and deliver, with the bundled providers as examples. */
export function contractMarkdown(input: ContractInput): string {
  const link = (target: string) => linkFrom(input, CONTRACT_FILES.markdown, target);
  const out: string[] = [];
  out.push('# The provider contract', '', `<!-- ${generatedNotice(input)} -->`, '');
  out.push(
    'Every provider is a Crossplane composition function behind one XR per cloud, driven by drift through its',
    'adapter (`provider.yaml`). drift renders each one against the same scenarios and holds it to what follows:',
    'the rules every implementation must satisfy, and the differences the team has accepted, each with its',
    `reason. \`drift rules\` prints the same rules; \`drift diff -p NAME\` checks one provider against them and`,
    'against the conventions of the others.',
    '',
  );

  out.push('## What every implementation exposes', '');
  out.push(
    'Composed resources are matched across providers by the role they play, which drift infers from what each',
    'resource is and does (its kind, its wiring, the pool it serves; drift\'s docs/skeleton.md has the order of',
    'the evidence), never from its key alone. An adapter overrides what inference gets wrong with `roles:` in',
    '`provider.yaml`. A key that plays no role is cloud-only: rules still apply to it.',
    '',
    '| role | what it is | kinds drift infers it from |',
    '|---|---|---|',
  );
  for (const role of input.roles) out.push(`| \`${role.role}\` | ${inline(role.meaning)} | ${role.kinds.map((kind) => `\`${kind}\``).join(', ') || 'its wiring'} |`);
  out.push('');

  out.push('## What every implementation delivers: the rules', '');
  out.push('A violation is a `contract` finding: `drift diff` fails on it whatever the other providers do.', '');
  for (const rule of input.rules) {
    out.push(`### \`${rule.id}\``, '');
    out.push(inline(rule.description), '');
    out.push(`- **Why:** ${inline(rule.rationale)}`);
    out.push(`- **Applies:** ${inline(rule.appliesWhen)}`);
    out.push(`- **Violation:** ${inline(rule.examples.violation)}`);
    out.push(`- **Fix:** ${inline(rule.examples.fix)}`);
    out.push(`- **Class:** ${rule.class}`, '');
  }

  out.push('## Locked conventions', '');
  if (input.locked.length === 0) {
    out.push(`None yet. \`drift diff\` lists candidate conventions (facets every provider agrees on); \`drift lock <facet> --subject S --reason "..."\` locks one in \`${input.paths.conventions}\`.`, '');
  } else {
    out.push(`Proven on every provider and locked in [\`${input.paths.conventions}\`](${link(input.paths.conventions)}): a provider that differs is a \`contract\` finding (\`locked:<facet>:<subject>:<provider>\`) even when most providers differ.`, '');
    for (const convention of sortedLocked(input.locked)) {
      const exceptions = sortedAccepted(input.accepted.filter((entry) => entry.facet === convention.facet && (entry.subject === undefined || entry.subject === convention.subject)));
      out.push(`- **\`${convention.subject}\` ${convention.facet}**: ${inline(lockedWords(convention))}. Why: ${inline(convention.reason)}`);
      for (const entry of exceptions) out.push(`  - exception for ${(entry.providers ?? ['all providers']).join(', ')}${entry.scenario ? ` in ${entry.scenario}` : ''}: ${inline(entry.reason)}`);
    }
    out.push('');
  }

  if (input.style.length > 0) {
    out.push('## How the code is written', '');
    out.push(
      `Every provider's source outline (\`goldens/<provider>/outline.yaml\`) agrees on these, so a new provider writes its code the same way: a provider that differs is a \`stylistic\` finding whose hint names the file:line to change. Read any of the worked examples below beside them.`,
      '',
      '| subject | facet | what | every provider writes |',
      '|---|---|---|---|',
    );
    for (const convention of input.style) out.push(`| \`${convention.subject}\` | ${convention.facet} | ${inline(convention.describe)} | \`${inline(convention.value)}\` |`);
    out.push('');
  }

  out.push('## Accepted divergences', '');
  if (input.accepted.length === 0) {
    out.push(`None: \`${input.paths.accepted}\` accepts nothing.`, '');
  } else {
    out.push(`Differences the team accepted in [\`${input.paths.accepted}\`](${link(input.paths.accepted)}), with the reason each is inherent to its cloud. Anything else that differs is a finding.`, '');
    for (const entry of sortedAccepted(input.accepted)) {
      // An entry naming no provider accepts the facet whoever differs: a split among them all.
      const who = entry.providers?.length ? entry.providers.map((provider) => `**${provider}**`).join(', ') : entry.ways ? `**all providers** (a split, its ways pinned: ${pinnedGroups(entry)})` : '**all providers** (a split)';
      out.push(`- ${who}, ${acceptedSubject(entry)}: ${inline(entry.reason)}`);
    }
    out.push(
      '',
      'A split whose ways are pinned accepts each provider it names on its own way only: a provider that leaves its way, or a new one that joins a way, is a finding naming it (accept it with its own reason, or follow another way). `drift migrate` pins the ways of an entry that names none, and rewrites finding ids of an older drift.',
    );
    out.push('');
  }

  out.push('## Worked examples', '');
  out.push('Each bundled provider satisfies every rule above; read one beside the rule you are implementing.', '');
  out.push('| provider | XR | adapter | function | tests | notes |', '|---|---|---|---|---|---|');
  for (const provider of input.providers) {
    const cell = (target: string | undefined, label: string) => (target ? `[${label}](${link(target)})` : '');
    out.push(
      `| ${provider.name} | \`${provider.xr.kind}\` (\`${provider.xr.apiVersion}\`) | ${cell(provider.files.adapter, 'provider.yaml')} | ${cell(provider.files.function, `${provider.files.function.split('/').pop()}/`)} | ${cell(provider.files.tests, 'tests/')} | ${cell(provider.files.readme, 'README')} |`,
    );
  }
  out.push('');

  out.push('## Adding a provider', '');
  out.push(`The agent skill [\`${CONTRACT_FILES.skill}\`](${CONTRACT_FILES.skill}) walks through it; drift's docs/adapters.md, "Adding a provider", has the details.`, '');
  return `${out.join('\n').trimEnd()}\n`;
}

/** Who holds which way of a pinned split, as groups of providers: `aks, gke, nebius | eks, vultr`. */
function pinnedGroups(entry: AcceptedEntry): string {
  return [...new Set((entry.ways ?? []).map((way) => way.providers.join(', ')))].join(' | ');
}
