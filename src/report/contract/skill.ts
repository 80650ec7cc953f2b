import { CONTRACT_FILES, linkFrom, SKILL_NAME, type ContractInput } from './contractModel.js';
import { generatedNotice } from './notice.js';

/** The skill's front matter description: what it does and when an agent should load it (at most 1,024 characters). */
export const SKILL_DESCRIPTION =
  'Add a new cloud provider (a Crossplane composition function) to a drift project, or bring one back in line: write its drift adapter, implement the function against the generated contract, and check it with drift diff -p until it matches the rules and the other providers. Use when asked to add, port or fix a provider that drift compares.';

/**
 * SKILL.md in the Agent Skills format: short, pointing at CONTRACT.md for the substance, so the two
 * never say different things.
 */
export function skillMarkdown(input: ContractInput): string {
  const link = (target: string) => linkFrom(input, CONTRACT_FILES.skill, target);
  const contract = link(`${input.paths.contractDir}/${CONTRACT_FILES.markdown}`);
  const example = input.providers[0];
  const out: string[] = [];
  // JSON strings are valid YAML scalars: no quoting rules to get wrong.
  out.push('---', `name: ${SKILL_NAME}`, `description: ${JSON.stringify(SKILL_DESCRIPTION)}`, '---', '', `<!-- ${generatedNotice(input)} -->`, '');
  out.push('# Add a provider with drift', '');
  out.push(`The contract is [CONTRACT.md](${contract}): the roles to expose, the ${input.rules.length} rules to satisfy and the accepted differences. Read it first.`, '');
  out.push('## Workflow', '');
  out.push(
    `1. **Adapter.** Run \`drift new-provider NAME --xrd path/to/definition.yaml\`: it drafts \`providers/NAME/provider.yaml\` from the XRD (apiVersion, kind, the required fields, the pools and credentials mapped) and prints what is left to fill in: how to start the function, this cloud's machine per GPU, the credentials object, the facts the simulated cloud sets. ${example ? `[${example.name}'s adapter](${link(example.files.adapter)})` : 'An existing `provider.yaml`'} shows a finished one.`,
    "2. **Expect.** Run `drift expect -p NAME`: every requirement `drift diff -p NAME` judges (the other providers' conventions, the accepted ways, the locked conventions, the rules, the style conventions), one line each, with the id of the finding it raises when not met and the scenarios it holds in. Once the adapter exists, each line reads met, not met or accepted, and `drift expect -p NAME --unmet` lists exactly what `drift diff -p NAME` fails on.",
    '3. **Implement.** Write the function so that every rule in CONTRACT.md holds and every requirement is met, the way CONTRACT.md says the code is written (the module layout, composers and idioms of the worked examples), formatted with ruff.',
    "4. **Check.** Run `drift diff -p NAME`: the other providers take part through their goldens, so it shows the rules NAME breaks (`contract`), where NAME differs from what the other providers do (`behavioral`), and which way of an accepted split NAME takes. `drift render -p NAME -s SCENARIO` prints a step to look at. Each finding says where (`at` file:line of the code that composes its subject, and one provider's that follows the convention) and its hint what to do; one cause is one finding, listing the scenarios that show it. Fix what it reports (or what `drift expect -p NAME --unmet` lists: the same findings, as targets) and run it again. While NAME has no goldens, the report ends with the note `new provider: goldens not written yet` and exits 0 once nothing else is wrong; a note is not a finding.",
    '5. **Accept only what the cloud forces.** A finding that says NAME joins the accepted way of other providers names them and why it was accepted for them: if the same reason holds for NAME\'s cloud, run the `drift accept` it prints with NAME\'s own reason (it pins NAME to that way), else follow the other way it names. Then run `drift diff -p NAME` again.',
    "6. **Goldens and contract.** When `drift diff -p NAME` exits 0, run `drift update -p NAME`: it writes NAME's goldens and regenerates the contract files in the same step. `drift diff -p NAME` then exits 0 without the note. Commit the function, the adapter, the goldens, goldens/accepted.yaml and the contract files together.",
    '',
    "When drift's MCP server (`drift mcp`) is connected, prefer its tools to these commands: `expect`, `diff`, `explain` (a finding's facet, the ways providers take and where their code does it), `render` and `update` answer the same questions in small, paged answers.",
    '',
  );
  out.push('## When `drift accept` is legitimate', '');
  out.push(
    `- **Yes:** a difference the cloud itself forces (it has no such resource, hands off credentials another way). Accept it by id with a reason that names that fact; the reason is published in the contract. Existing entries in ${input.paths.accepted} show the tone.`,
    "- **No:** a `contract` finding you have not fixed, a difference you do not understand, or one that other providers' code shows can be avoided. Fix the function instead; an accepted entry that no longer matches anything is reported as stale. An entry that accepts a split for every provider without its ways (`accepted-legacy`), or an id of an older drift, is rewritten by `drift migrate`.",
    '',
  );
  return `${out.join('\n').trimEnd()}\n`;
}
