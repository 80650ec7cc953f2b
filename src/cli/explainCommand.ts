import type { Command } from 'commander';
import { DriftError } from '../errors.js';
import type { Explanation, Place } from '../mcp/explain.js';
import { stableStringify } from '../util/objects.js';
import { collect, fullProject, globalOptions } from './context.js';
import type { Invocation } from './io.js';
import { progressFor } from './progress.js';

interface ExplainOptions {
  provider?: string;
  scenario: string[];
  format: 'text' | 'json';
}

const placeText = (place: Place) => `${place.file}:${place.line}`;
const indented = (text: string, by: string) => text.trimEnd().split('\n').map((line) => `${by}${line}`).join('\n');

/** The explanation as a person reads it: what, where, what it compares, the ways with a place each, what to do. */
function explanationText(answer: Explanation): string {
  const out = [`${answer.id} (${answer.type}${answer.provider ? `, ${answer.provider}` : ''})`, `  ${answer.message}`];
  if (answer.where) {
    out.push(`  where: ${placeText(answer.where)}`);
    if (answer.where.excerpt) out.push(indented(answer.where.excerpt, '    | '));
  }
  const meta = answer.meta as { description?: string; compares?: string; fix?: string; rationale?: string } | undefined;
  if (meta?.description) out.push(`  ${answer.facet}: ${meta.description}`);
  if (meta?.compares) out.push(`  compares: ${meta.compares}`);
  if (meta?.rationale) out.push(`  why: ${meta.rationale}`);
  if (answer.ways.length) {
    out.push('  ways:');
    for (const way of answer.ways) {
      out.push(`    ${way.providers.join(', ')}: ${stableStringify(way.value ?? null)}${way.place ? ` (${way.place.provider}: ${placeText(way.place)})` : ''}`);
      if (way.place?.excerpt) out.push(indented(way.place.excerpt, '      | '));
    }
  }
  if (meta?.fix) out.push(`  fix: ${meta.fix}`);
  out.push(`  hint: ${answer.hint}`);
  return `${out.join('\n')}\n`;
}

export function registerExplain(program: Command, cli: Invocation): void {
  program
    .command('explain <finding-id>')
    .description("explain a finding drift diff prints: its facet's or rule's meta, the ways providers take with a place in the source for each, and where the finding's cause is (the answer of the MCP explain tool)")
    .option('-p, --provider <name>', 'the provider whose diff reports it (default: the one the id names; none for a split: a full diff)')
    .option('-s, --scenario <name>', 'only this scenario (repeatable), as drift diff -s', collect, [])
    .option('-f, --format <format>', 'text or json', 'text')
    .action(async (id: string, options: ExplainOptions, command: Command) => {
      if (options.format !== 'text' && options.format !== 'json') throw new DriftError(`--format ${options.format}: give text or json`);
      const full = await fullProject(command, cli);
      const names = new Set(full.adapters.map((adapter) => adapter.name));
      // The provider an id ends with (div:…:P, rule:…:P:…, style:…:P, locked:…:P), tried from the end.
      const named = options.provider ?? id.split(':').reverse().find((part) => names.has(part));
      if (options.provider !== undefined && !names.has(options.provider)) throw new DriftError(`-p ${options.provider}: no such provider; the project's are ${[...names].sort().join(', ')}`);
      const [{ selectProject }, { diffProject }, { buildReport }, { explainFinding }] = await Promise.all([import('../config/load.js'), import('../pipeline/diffRun.js'), import('../report/model.js'), import('../mcp/explain.js')]);
      const providers = named ? [named] : [];
      const project = selectProject(full, providers, options.scenario);
      const progress = progressFor(cli, project.adapters.map((adapter) => adapter.name), globalOptions(command).verbose);
      const { findings } = await diffProject({ full, project, filters: { providers, scenarios: options.scenario }, ...(progress.onEvent ? { onEvent: progress.onEvent } : {}) }).finally(() => progress.done());
      const report = buildReport(project.adapters.map((adapter) => adapter.name), project.scenarios.map((scenario) => scenario.name), findings);
      // A consequence of a cause is explained by its own id too.
      // An id as an older drift spelled it (a space, a bracket) names the finding it is spelled as now.
      const { respelledId } = await import('../compare/findingId.js');
      const wanted = respelledId(id);
      const finding = [...report.findings, ...report.accepted].flatMap((one) => [one, ...(one.consequences ?? [])]).find((one) => one.id === wanted);
      const run = `drift diff${named ? ` -p ${named}` : ''}${options.scenario.map((scenario) => ` -s ${scenario}`).join('')}`;
      if (!finding) throw new DriftError(`${run} reports no finding ${id}: copy an id it prints (and give -p when the id names no provider of this project)`);
      const answer = await explainFinding(full, finding);
      cli.io.stdout.write(options.format === 'json' ? `${JSON.stringify(answer, null, 2)}\n` : explanationText(answer));
    });
}
