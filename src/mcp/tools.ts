import { cachePolicy, type CachePolicy } from '../cache/policy.js';
import { pruneAfterRun } from '../cache/prune.js';
import { projectRoot } from '../config/projectRoot.js';
/**
 * What each tool answers, over the commands' own pipeline: the same loadProject, expectProject,
 * diffProject, runProject and updateGoldens the CLI calls, so a change to drift's judge reaches the
 * agent unchanged. Each answer is plain data; server.ts gives it schemas and sends it.
 */
import { refuseUnless, type Policy } from '../util/ci.js';
import path from 'node:path';
import { loadProject, selectProject, withRunOptions } from '../config/load.js';
import { checkName, checkSubject } from '../config/names.js';
import type { Project } from '../config/types.js';
import type { ExpectLine } from '../compare/requirements.js';
import type { Finding } from '../compare/findings.js';
import { RULE_METAS } from '../compare/rules/index.js';
import { DriftError } from '../errors.js';
import { FACETS, isFacet } from '../facets/registry.js';
import { renderStep } from '../functions/stream.js';
import { loadAccepted } from '../goldens/acceptedStore.js';
import { ContractStore } from '../goldens/contractStore.js';
import { FunctionPool } from '../functions/pool.js';
import { findChanged, selectChanged } from '../pipeline/changedRun.js';
import { generatedContract } from '../pipeline/contractRun.js';
import { expectProject } from '../pipeline/conventionRun.js';
import { diffProject } from '../pipeline/diffRun.js';
import { runProject } from '../pipeline/run.js';
import { updateGoldens } from '../pipeline/updateRun.js';
import { buildReport } from '../report/model.js';
import { stableStringify } from '../util/objects.js';
import type { Environment } from '../util/envVars.js';
import { explainFinding } from './explain.js';
import { hasGoldens } from './projectFiles.js';
import { Answers, type Answer, type Page } from './paging.js';
import { ProviderQueue, withDeadline } from './queue.js';

export interface ServerSetup {
  /** drift.config.yaml as `drift mcp --config` named it (absent: the default lookup), and the folder it was started in. */
  config: string | undefined;
  cwd: string;
  env: Environment;
  /** What the server may write and how strict its runs are, resolved by the CLI edge that started it. */
  policy: Policy;
  concurrency?: number;
  /** The cache policy `drift mcp` resolved at its start (cache/policy.ts); absent: the environment's. Disabled under `drift --no-cache mcp`. */
  cache?: CachePolicy;
  /** Milliseconds a rendering call may take before its functions are stopped. */
  deadlineMs: number;
  /** Milliseconds a provider's function process is kept idle between calls (functions/pool.ts); 0 or absent: one process per call. */
  keepFunctionsMs?: number;
}

export interface Paged {
  limit?: number;
  next?: string;
}

export class DriftTools {
  private readonly answers = new Answers();
  private readonly queue = new ProviderQueue();
  /** The findings of this session's diff answers, by id, for explain. */
  private readonly findings = new Map<string, Finding>();
  /** Each provider's function process, kept between the calls that render it while its code is the same. */
  readonly pool: FunctionPool | undefined;

  constructor(private readonly setup: ServerSetup) {
    this.pool = setup.keepFunctionsMs ? new FunctionPool(setup.keepFunctionsMs) : undefined;
  }

  /** Stops the kept function processes: the session is over. */
  close(): Promise<void> {
    return this.pool?.stopAll() ?? Promise.resolve();
  }

  private get kept(): { pool?: FunctionPool } {
    return this.pool ? { pool: this.pool } : {};
  }

  /** The project as it is on disk now: the agent edits files between calls. */
  async project(): Promise<Project> {
    const cache = this.setup.cache ?? cachePolicy(projectRoot(this.setup.config, this.setup.cwd), this.setup.env);
    // What the previous call wrote is pruned before this one reads (cache/prune.ts).
    if (cache.enabled) pruneAfterRun(cache.folder);
    const project = await loadProject(this.setup.config, this.setup.cwd, this.setup.env, this.setup.policy, cache);
    return withRunOptions(project, { concurrency: this.setup.concurrency });
  }

  get root(): Promise<string> {
    return this.project().then((project) => project.config.root);
  }

  private provider(project: Project, name: string): string {
    checkName(name, 'provider');
    if (!project.adapters.some((adapter) => adapter.name === name)) {
      throw new DriftError(`no provider ${name} in this project (it has ${project.adapters.map((a) => a.name).join(', ')}); call list, or draft one with drift new-provider ${name}`);
    }
    return name;
  }

  private scenarios(project: Project, names: readonly string[] = []): string[] {
    for (const name of names) {
      checkName(name, 'scenario');
      if (!project.scenarios.some((scenario) => scenario.name === name)) throw new DriftError(`no scenario ${name} in this project; call list for the scenarios`);
    }
    return [...names];
  }

  /** A page of the answer `compute` gives, or with `next` of the one it gave before. */
  private async paged<T>(query: unknown, compute: () => Promise<Answer<T>> | Answer<T>, { limit, next }: Paged): Promise<Page<T> & Record<string, unknown>> {
    const key = stableStringify(query);
    const recalled = this.answers.recall(next, key);
    if (recalled) return this.answers.page(key, recalled.answer as Answer<T>, recalled.offset, limit);
    return this.answers.page(key, await compute(), 0, limit);
  }

  private static list<T>(items: readonly T[]): Answer<T> {
    return { items, about: {} };
  }

  private rendering<T>(providers: readonly string[], what: string, work: () => Promise<T>): Promise<T> {
    return this.queue.run(providers, () => withDeadline(this.setup.deadlineMs, what, work()));
  }

  async list() {
    const project = await this.project();
    const goldens = path.resolve(project.config.root, project.config.goldens);
    return {
      providers: project.adapters.map((adapter) => ({ name: adapter.name, kind: adapter.xr.kind, adapter: path.relative(project.config.root, adapter.file), goldens: hasGoldens(goldens, adapter.name) })),
      scenarios: project.scenarios.map((scenario) => ({ name: scenario.name, description: scenario.description })),
    };
  }

  async expect(input: { provider: string; subject?: string; facet?: string; scenario?: string; unmet?: boolean } & Paged): Promise<Page<ExpectLine> & Record<string, unknown>> {
    const project = await this.project();
    const name = this.provider(project, input.provider);
    if (input.subject !== undefined) checkSubject(input.subject);
    if (input.facet !== undefined && !isFacet(input.facet)) throw new DriftError(`${input.facet} is not a facet; call facets for the list`);
    if (input.scenario !== undefined) this.scenarios(project, [input.scenario]);
    const { limit, next, ...query } = input;
    return this.paged(
      { tool: 'expect', ...query },
      async () => {
        const result = await this.rendering([name], `expect -p ${name}`, () => expectProject(project, name, { ...(input.scenario !== undefined ? { scenarios: [input.scenario] } : {}), ...this.kept }));
        const items = result.lines.filter(
          (line) =>
            (input.subject === undefined || line.subject === input.subject) &&
            (input.facet === undefined || line.facet === input.facet) &&
            (input.scenario === undefined || line.scenarios.includes(input.scenario)) &&
            (!input.unmet || line.status === 'not met'),
        );
        return { items, about: { provider: name, rendered: result.rendered } };
      },
      { ...(limit !== undefined ? { limit } : {}), ...(next !== undefined ? { next } : {}) },
    );
  }

  async diff(input: { provider?: string; changed?: string | boolean; scenario?: string[] } & Paged) {
    const full = await this.project();
    if ((input.provider === undefined) === (input.changed === undefined || input.changed === false)) {
      throw new DriftError('give either provider (judge one provider against the others\' goldens) or changed (judge what changed since main), not both and not neither');
    }
    if (typeof input.changed === 'string' && !/^[A-Za-z0-9][A-Za-z0-9._/-]{0,200}$/.test(input.changed)) throw new DriftError(`${JSON.stringify(input.changed)} is not a git ref drift takes: a branch, tag or commit`);
    const scenarios = this.scenarios(full, input.scenario);
    const { limit, next, ...query } = input;
    return this.paged(
      { tool: 'diff', ...query },
      async () => {
        let project: Project;
        let filters: { providers: string[]; scenarios: string[] };
        let changed;
        if (input.provider !== undefined) {
          const name = this.provider(full, input.provider);
          project = selectProject(full, [name], scenarios);
          filters = { providers: [name], scenarios };
        } else {
          changed = await findChanged(full, typeof input.changed === 'string' ? input.changed : undefined);
          ({ project, filters } = selectChanged(full, changed, scenarios));
        }
        const names = project.adapters.map((adapter) => adapter.name);
        const { run, findings, candidates, outlined } = await this.rendering(names, `diff of ${names.join(', ') || 'nothing'}`, () => diffProject({ full, project, filters, ...this.kept }));
        const report = buildReport(names, project.scenarios.map((s) => s.name), findings, {
          sources: outlined.map((source) => source.adapter.name),
          candidates: candidates.map((candidate) => ({ facet: candidate.facet, subject: candidate.subject, value: candidate.words })),
          ...(changed ? { changed } : {}),
        });
        // A cause's consequences can be explained one by one, by the ids the cause lists.
        for (const finding of [...report.findings, ...report.accepted].flatMap((one) => [one, ...(one.consequences ?? [])])) this.findings.set(finding.id, finding);
        const errors = run.providers.flatMap((provider) => (provider.error ? [`${provider.provider}: ${provider.error}`] : []));
        return { items: report.findings, about: { summary: { rendered: names, ...report.summary, ...(errors.length ? { errors } : {}) } } };
      },
      { ...(limit !== undefined ? { limit } : {}), ...(next !== undefined ? { next } : {}) },
    );
  }

  async explain(input: { id: string }) {
    const finding = this.findings.get(input.id);
    if (!finding) throw new DriftError(`no finding ${JSON.stringify(input.id)} in this session's diff answers: call diff for its provider first, then explain an id it returned`);
    return explainFinding(await this.project(), finding);
  }

  async render(input: { provider: string; scenario: string; step?: number } & Paged) {
    const full = await this.project();
    const name = this.provider(full, input.provider);
    const [scenario] = this.scenarios(full, [input.scenario]);
    const project = selectProject(full, [name], [scenario!]);
    const { limit, next, ...query } = input;
    const page = await this.paged(
      { tool: 'render', ...query },
      async () => {
        const { providers, cells } = await this.rendering([name], `render -p ${name} -s ${scenario}`, () => runProject(project, { determinism: false, gating: false, ...this.kept }));
        const startError = providers.find((provider) => provider.error)?.error;
        if (startError) throw new DriftError(startError);
        const trace = cells[0]!.trace;
        const last = trace.steps.length - 1;
        if (input.step !== undefined && input.step > last) throw new DriftError(`${name}/${scenario} has steps 0 to ${last}; there is no step ${input.step}`);
        const step = trace.steps.find((s) => s.index === (input.step ?? last))!;
        // Lines of the YAML stream, so a page cuts between lines, never inside one.
        return { items: renderStep(step).split(/(?<=\n)/), about: { steps: trace.steps.length, step: step.index, converged: trace.converged ?? null, ...(trace.error ? { error: trace.error } : {}) } };
      },
      { limit: limit ?? 10_000, ...(next !== undefined ? { next } : {}) },
    );
    const { items, ...rest } = page;
    return { provider: name, scenario: scenario!, ...rest, yaml: items.join('') };
  }

  rules(input: Paged) {
    return this.paged({ tool: 'rules' }, () => DriftTools.list(RULE_METAS.map((meta) => ({ ...meta }))), input);
  }

  facets(input: { id?: string } & Paged) {
    const { limit, next, ...query } = input;
    if (input.id !== undefined && !isFacet(input.id)) throw new DriftError(`${input.id} is not a facet; call facets without id for the list`);
    return this.paged({ tool: 'facets', ...query }, () => DriftTools.list(FACETS.filter((facet) => input.id === undefined || facet.id === input.id).map((facet) => ({ ...facet }))), {
      ...(limit !== undefined ? { limit } : {}),
      ...(next !== undefined ? { next } : {}),
    });
  }

  /** New-provider mode only: the goldens of a provider that has none, then the contract, as `drift update -p` and `drift contract` write them. */
  async update(input: { provider: string }) {
    refuseUnless(this.setup.policy.write, 'goldens');
    const full = await this.project();
    const name = this.provider(full, input.provider);
    const goldensDir = path.resolve(full.config.root, full.config.goldens);
    if (hasGoldens(goldensDir, name)) {
      throw new DriftError(`${name} has goldens already: the server writes goldens only for a provider that has none. Changing reviewed goldens is a human's step: drift update -p ${name} (or drift accept) in a shell. Nothing changed.`);
    }
    return this.rendering([name], `update -p ${name}`, async () => {
      const project = selectProject(full, [name]);
      const { run, writes, outlineWrites, goldens } = await updateGoldens({ full, project, filters: { providers: [name], scenarios: [] }, prune: false });
      const error = run.providers.find((provider) => provider.error)?.error;
      if (error) throw new DriftError(`${name} would not start, so no golden was written: ${error}`);
      const after = await this.project();
      const store = ContractStore.of(after);
      const contract = store.write(generatedContract(after, loadAccepted(after)));
      const shown = (file: string) => path.relative(after.config.root, path.join(goldensDir, file));
      return {
        provider: name,
        goldens: [...writes, ...outlineWrites].filter((write) => write.change !== 'unchanged').map((write) => ({ file: shown(write.file), change: write.change, ...('why' in write ? { why: write.why } : {}) })),
        counters: goldens.counters,
        contract: contract.map((file) => path.relative(after.config.root, path.join(store.dir, file))),
      };
    });
  }
}
