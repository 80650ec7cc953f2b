import type { Invocation } from './io.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { Adapter, Project, Scenario } from '../config/types.js';
import { DriftError } from '../errors.js';
import { checkName } from '../config/names.js';
import { fullProject, shownPath } from './context.js';
import { reportSwept } from './progress.js';

/** Where the project keeps an adapter named `name`: its `providers` glob with the one `*` filled in. */
function adapterPath(project: Project, name: string): string {
  const glob = project.config.providers.find((pattern) => pattern.split('*').length === 2 && !/[?[{]/.test(pattern));
  if (!glob) throw new DriftError(`cannot tell where a new adapter goes from the config's providers (${project.config.providers.join(', ')}): give it a pattern with one *, such as providers/*/provider.yaml. Nothing written.`);
  return path.resolve(project.config.root, glob.replace('*', name));
}

/**
 * Each GPU's counts the draft's machine lookup must hold: those the scenarios set and those drift's
 * intent probes set on an `ablate` scenario (a count one higher, another GPU), else the drafted adapter fails on first use.
 */
function gpuCountsAsked(scenarios: readonly Scenario[], gpus: readonly string[], probesFor: (adapter: Pick<Adapter, 'xr'>, scenario: Scenario) => Array<{ scenario: Scenario }>): Record<string, number[]> {
  const counts: Record<string, Set<number>> = {};
  const adapter = { xr: { gpus: Object.fromEntries(gpus.map((gpu) => [gpu, {}])) } } as Pick<Adapter, 'xr'>;
  for (const scenario of scenarios) {
    const probed = scenario.ablate ? probesFor(adapter, scenario).map((probe) => probe.scenario) : [];
    for (const asked of [scenario, ...probed]) {
      for (const pool of asked.xr.nodePools) if (pool.gpu) (counts[pool.gpu] ??= new Set()).add(pool.gpuCount ?? 1);
    }
  }
  return Object.fromEntries(Object.entries(counts).map(([gpu, set]) => [gpu, [...set].sort((a, b) => a - b)]));
}

export function registerNewProvider(program: Command, cli: Invocation): void {
  program
    .command('new-provider <name>')
    .description("draft a new provider's adapter from its XRD: the XR's apiVersion and kind, its required spec fields with example values, the pools and credentials mapped; prints what is left to fill in")
    .requiredOption('--xrd <file>', "the provider's CompositeResourceDefinition")
    .action(async (name: string, options: { xrd: string }, command: Command) => {
      checkName(name, 'provider');
      const project = await fullProject(command, cli);
      const [{ draftAdapter }, { readXrdDefinition }] = await Promise.all([import('../config/adapterDraft.js'), import('../config/xrd.js')]);
      if (project.adapters.some((adapter) => adapter.name === name)) throw new DriftError(`the project already has a provider named ${name}. Nothing written.`);
      const target = adapterPath(project, name);
      const shown = shownPath(cli, target);
      if (existsSync(target)) throw new DriftError(`${shown} exists already: drift new-provider never overwrites an adapter. Nothing written.`);
      const xrdFile = path.resolve(cli.io.cwd, options.xrd);
      // The draft names its XRD, and the next load holds that path to the path rule: an XRD outside the
      // project would give a draft no drift command loads.
      const { isInside, outsideProblem, rootsOf } = await import('../config/paths.js');
      const roots = rootsOf(project.config.root, project.config.roots);
      if (existsSync(xrdFile) && !isInside(roots, xrdFile)) {
        throw new DriftError(`--xrd ${outsideProblem(roots, 'the XRD', options.xrd, xrdFile)}, or copy the XRD into the project (e.g. providers/${name}/apis/definition.yaml), so the draft's xrd: loads. Nothing written.`);
      }
      const xrd = readXrdDefinition(xrdFile, options.xrd);
      const gpus = [...new Set(project.scenarios.flatMap((scenario) => scenario.xr.nodePools.flatMap((pool) => (pool.gpu ? [pool.gpu] : []))))].sort();
      const xrdPath = path.relative(path.dirname(target), xrdFile).split(path.sep).join('/');
      const { probesFor } = await import('../compare/intentCoverage.js');
      const draft = draftAdapter({ name, xrd, xrdPath, gpus, gpuCounts: gpuCountsAsked(project.scenarios, gpus, probesFor) });
      const [{ writeFileAtomic }, { GoldenStore }] = await Promise.all([import('../goldens/atomicFile.js'), import('../goldens/store.js')]);
      reportSwept(cli, GoldenStore.of(project).sweep(), project);
      try {
        writeFileAtomic(target, draft.text, { exclusive: true });
      } catch (error) {
        throw new DriftError(`could not write ${shown}: ${(error as Error).message}`);
      }
      cli.io.stdout.write(`drafted ${shown} for ${xrd.kind} (${xrd.apiVersion}) from ${shownPath(cli, xrdFile)}\n\nleft to fill in:\n`);
      for (const item of draft.todo) cli.io.stdout.write(`  - ${item}\n`);
      cli.io.stdout.write(`\nthen: drift expect -p ${name} (what the other providers and the locked conventions require), implement the function, drift diff -p ${name}\n`);
    });
}
