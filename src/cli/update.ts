import path from 'node:path';
import type { Command } from 'commander';
import { analyze } from '../analyze.js';
import { selectProject } from '../config/load.js';
import { toCanonicalYaml } from '../skeleton/canonical.js';
import { GoldenStore, refuseUnderCI } from '../goldens/store.js';
import { obsoleteGoldens } from './cells.js';
import { collect, fullProject, globalOptions } from './context.js';
import { liveProgress, printOutlines, printTimings } from './progress.js';
import { toCanonicalOutline } from '../outline/canonical.js';
import { outlineSources, readProjectSources } from '../pipeline/sources.js';

interface UpdateOptions {
  provider: string[];
  scenario: string[];
  prune?: boolean;
}

export function registerUpdate(program: Command): void {
  program
    .command('update')
    .description('rewrite the goldens of the selected provider × scenario cells from what the functions render now')
    .option('-p, --provider <name>', 'only this provider (repeatable)', collect, [])
    .option('-s, --scenario <name>', 'only this scenario (repeatable)', collect, [])
    .option('--prune', 'also remove goldens that nothing produces any more')
    .action(async (options: UpdateOptions, command: Command) => {
      refuseUnderCI();
      const full = await fullProject(command);
      const project = selectProject(full, options.provider, options.scenario);
      const store = GoldenStore.of(project);
      const onProgress = liveProgress(project.adapters.map((a) => a.name));
      const outlining = outlineSources(await readProjectSources(project));
      const analysis = await analyze(project, onProgress ? { onProgress } : {});
      const outlined = await outlining;
      if (globalOptions(command).verbose) {
        printTimings(analysis);
        printOutlines(outlined);
      }
      const refused = new Map(analysis.findings.map((finding) => [`${finding.provider}/${finding.scenario}`, finding.message]));
      for (const [cell, where] of analysis.nondeterministic) refused.set(cell, `the function is not deterministic: two renders differ at ${where}`);
      const counts = { added: 0, changed: 0, unchanged: 0, failed: 0, removed: 0 };
      const rel = (file: string) => path.relative(process.cwd(), file);
      for (const skeleton of analysis.skeletons) {
        const cell = `${skeleton.provider}/${skeleton.scenario}`;
        const file = store.file(skeleton.provider, skeleton.scenario);
        const why = refused.get(cell);
        if (why) {
          counts.failed += 1;
          process.stderr.write(`not written ${rel(file)}: ${why}\n`);
          continue;
        }
        const text = toCanonicalYaml(skeleton);
        const before = store.read(skeleton.provider, skeleton.scenario);
        if (before === text) {
          counts.unchanged += 1;
          continue;
        }
        store.write(skeleton.provider, skeleton.scenario, text);
        const change = before === undefined ? 'added' : 'changed';
        counts[change] += 1;
        process.stdout.write(`${change.padEnd(9)} ${rel(file)}\n`);
      }
      // Each selected provider's outline beside its skeletons; never one of a file that does not
      // parse. It belongs to no scenario: --scenario adds a missing one and leaves an existing one.
      const outlines = { added: 0, changed: 0, unchanged: 0 };
      // A provider none of whose cells could be written (it failed to render, or is not
      // deterministic) gets no goldens at all, its outline included.
      const written = new Set(analysis.skeletons.filter((skeleton) => !refused.has(`${skeleton.provider}/${skeleton.scenario}`)).map((skeleton) => skeleton.provider));
      for (const { adapter, result } of outlined) {
        const file = store.outlineFile(adapter.name);
        if (!written.has(adapter.name)) continue;
        if (result.syntaxErrors.length > 0) {
          counts.failed += 1;
          const { file: source, line } = result.syntaxErrors[0]!;
          process.stderr.write(`not written ${rel(file)}: ${path.relative(process.cwd(), path.join(adapter.source?.root ?? adapter.function.cwd, source))}:${line} does not parse\n`);
          continue;
        }
        const text = toCanonicalOutline(result.outline);
        const before = store.readOutline(adapter.name);
        if (before === text || (before !== undefined && options.scenario.length > 0)) {
          outlines.unchanged += 1;
          continue;
        }
        store.writeOutline(adapter.name, text);
        const change = before === undefined ? 'added' : 'changed';
        outlines[change] += 1;
        process.stdout.write(`${change.padEnd(9)} ${rel(file)}\n`);
      }
      if (options.prune) {
        const filtered = { providers: options.provider.length > 0, scenarios: options.scenario.length > 0 };
        for (const obsolete of await obsoleteGoldens(store, full, project, filtered)) {
          store.remove(obsolete.file);
          counts.removed += 1;
          process.stdout.write(`removed   ${rel(obsolete.file)}\n`);
        }
      }
      process.stdout.write(
        `${counts.added} added, ${counts.changed} changed, ${counts.unchanged} unchanged${options.prune ? `, ${counts.removed} removed` : ''}${counts.failed ? `, ${counts.failed} not written` : ''}${outlined.length ? `; outlines: ${outlines.added} added, ${outlines.changed} changed, ${outlines.unchanged} unchanged` : ''}\n`,
      );
      if (analysis.starts.some((start) => start.error)) process.exitCode = 2;
      else process.exitCode = counts.failed ? 1 : 0;
    });
}
