import type { Invocation } from './io.js';
import { refuseUnless } from '../util/ci.js';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { AcceptedEntry } from '../compare/acceptance.js';
import type { Finding } from '../compare/findings.js';
import type { NewEntry } from '../config/acceptedText.js';
import { packageFile } from '../config/paths.js';
import { DriftError } from '../errors.js';
import type { Project } from '../config/types.js';
import { stableStringify } from '../util/objects.js';
import { collect, fullProject, globalOptions, shownPath } from './context.js';

/** The finding types an entry can accept: golden changes are updated, errors fixed, stale entries edited. */
const ACCEPTABLE = /^(div|split|rule|style|locked|cause):.+$/;

/** Why an id drift prints is not accepted, and what closes it instead; undefined when it is acceptable. */
function notAcceptable(id: string): string | undefined {
  if (ACCEPTABLE.test(id)) return undefined;
  const stale = /^accepted-stale:(\d+)$/.exec(id);
  if (stale) return `"${id}" is entry ${stale[1]} of goldens/accepted.yaml, which matches nothing any more: edit or remove that entry (its hint names the id that took over, if any)`;
  const legacy = /^accepted-legacy:(\d+)$/.exec(id);
  if (legacy) return `"${id}" is entry ${legacy[1]} of goldens/accepted.yaml, which pins no ways or spells its id as an older drift did: run \`drift migrate\` to rewrite it`;
  if (id.startsWith('golden')) return `"${id}" is a golden change, which is never accepted: if it is intended, run \`drift update\``;
  if (id.startsWith('error:')) return `"${id}" is a rendering error: fix the provider so it renders`;
  return `"${id}" is not a divergence, split or rule finding id, nor a style, locked or cause one (div:…, split:…, rule:…, style:…, locked:…, cause:…); copy it from drift diff's output`;
}

const readIfThere = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** Refuses a finding that an entry of the file already covers, by id or by facet, naming that entry. */
async function refuseIfCovered(file: string, shown: string, text: string | undefined, finding: Finding): Promise<void> {
  if (text === undefined) return;
  const [{ readLocatedYamlFile }, { describeEntry, matches }] = await Promise.all([import('../config/yamlFile.js'), import('../compare/acceptance.js')]);
  const { data, locate } = readLocatedYamlFile<{ accepted: AcceptedEntry[] }>(file, packageFile('schemas/accepted.schema.json'), { text, cache: undefined });
  const index = data.accepted.findIndex((entry) => matches(entry, finding));
  if (index < 0) return;
  const { line } = locate(['accepted', index]);
  const entry = data.accepted[index]!;
  const where = finding.scenario === undefined ? '' : ` in ${finding.scenario}`;
  throw new DriftError(`${finding.id}${where} is already accepted by entry ${index + 1} of ${shown} (line ${line}: ${describeEntry(entry)}; reason: ${entry.reason}): a second entry would be stale at once. Nothing changed.`);
}

/** What one accept writes: entries appended, or an entry replaced in place; and what to say once written. */
interface Plan {
  append: NewEntry[];
  replace?: { index: number; entry: AcceptedEntry };
  said: string[];
}

/** What a provider's re-pin changed on its entry, in words; nothing when the entry stays as it was. */
function changesOf(before: AcceptedEntry, after: AcceptedEntry, provider: string): string[] {
  if (stableStringify(before) === stableStringify(after)) return [];
  const scenariosOf = (entry: AcceptedEntry) => new Set((entry.ways ?? []).filter((way) => way.providers.includes(provider)).flatMap((way) => way.scenarios));
  const reasonOf = (entry: AcceptedEntry) => (entry.ways ?? []).map((way) => way.reasons?.[provider]).find((reason) => reason !== undefined);
  const [was, now] = [scenariosOf(before), scenariosOf(after)];
  const out: string[] = [];
  const added = [...now].filter((scenario) => !was.has(scenario));
  const left = [...was].filter((scenario) => !now.has(scenario));
  if (added.length) out.push(`${provider} is now pinned in ${added.join(', ')} too`);
  if (left.length) out.push(`${provider} no longer holds a way in ${left.join(', ')}`);
  const [oldReason, newReason] = [reasonOf(before), reasonOf(after)];
  if (oldReason !== undefined && oldReason !== newReason) out.push(`${provider}'s reason was "${oldReason}", now "${newReason}"`);
  const ways = (entry: AcceptedEntry) => stableStringify((entry.ways ?? []).map((way) => ({ ...way, providers: way.providers.filter((name) => name !== provider), reasons: undefined })));
  if (ways(before) !== ways(after)) out.push('the other providers\' ways were recomputed from their goldens');
  return out.length ? out : ['its ways were recomputed'];
}

/**
 * A divergence on a facet whose ways an entry pins: the provider is rendered and pinned to the way it
 * takes in every scenario of `scope`, with its own reason. Undefined when no entry pins the facet.
 */
async function ontoWays(cli: Invocation, command: Command, project: Project, entries: AcceptedEntry[], shown: string, id: string, reason: string, scope: string[]): Promise<Plan | undefined> {
  const [{ factsOfId }, { pinnedEntryFor, repinProvider }, { progressFor }] = await Promise.all([import('../compare/findingId.js'), import('../pipeline/migrateRun.js'), import('./progress.js')]);
  const facts = factsOfId(id);
  if (facts?.type !== 'divergence' || !facts.provider) return undefined;
  const index = pinnedEntryFor(entries, facts.subject, facts.facet!);
  // An entry kept to one scenario pins nothing elsewhere: the finding's other scenarios need an entry of their own.
  const kept = entries[index]?.scenario;
  if (index < 0 || (kept !== undefined && (scope.length === 0 || scope.some((scenario) => scenario !== kept)))) return undefined;
  const provider = facts.provider;
  if (!project.adapters.some((adapter) => adapter.name === provider)) throw new DriftError(`${id} names ${provider}, which is not a provider of this project. Nothing changed.`);
  const progress = progressFor(cli, [provider], globalOptions(command).verbose);
  const before = entries[index]!;
  let repinned: AcceptedEntry;
  try {
    repinned = await repinProvider(project, before, provider, reason, progress.onEvent, scope.length ? scope : undefined);
  } catch (error) {
    throw new DriftError(`${(error as Error).message}. Nothing changed.`);
  } finally {
    progress.done();
  }
  const changes = changesOf(before, repinned, provider);
  if (!changes.length) throw new DriftError(`${id} is already accepted by entry ${index + 1} of ${shown} as it is (${provider} holds its way with the reason "${reason}"). Nothing changed.`);
  // A later id of the same call builds on this one.
  entries[index] = repinned;
  const held = (repinned.ways ?? []).filter((way) => way.providers.includes(provider));
  const scenarios = new Set(held.flatMap((way) => way.scenarios));
  return {
    append: [],
    replace: { index, entry: repinned },
    said: [`accepted ${provider} onto entry ${index + 1} of ${shown} (${repinned.subject} ${repinned.facet}): it holds ${plural(held.length, 'way')} over ${plural(scenarios.size, 'scenario')}, with its own reason; ${changes.join('; ')}`],
  };
}

/**
 * Splits accepted with their ways pinned, from one render of every provider: each split becomes an
 * entry for its facet and subject that records who takes which way, in every scenario it shows in (or
 * the ones `-s` names), as `drift migrate` writes them.
 */
async function pinnedSplits(cli: Invocation, command: Command, project: Project, entries: readonly AcceptedEntry[], shown: string, splits: ReadonlyArray<{ id: string; subject: string; facet: string }>, reason: string, scope: string[]): Promise<Plan[]> {
  const [{ migrateProject }, { progressFor }] = await Promise.all([import('../pipeline/migrateRun.js'), import('./progress.js')]);
  const candidates = splits.flatMap((split) => (scope.length ? scope : [undefined]).map((scenario) => ({ split, entry: { facet: split.facet, subject: split.subject, ...(scenario ? { scenario } : {}), reason } })));
  const progress = progressFor(cli, project.adapters.map((adapter) => adapter.name), globalOptions(command).verbose);
  const { migrations, errors } = await migrateProject(project, [...entries, ...candidates.map((candidate) => candidate.entry)], progress.onEvent).finally(() => progress.done());
  // Ways read from a render that failed would pin the failure.
  if (errors.length) throw new DriftError(`cannot pin the ways of a split from a render that failed: ${errors.join('; ')}. Nothing changed.`);
  return splits.map((split) => {
    const mine = candidates.flatMap((candidate, offset) => (candidate.split === split ? (migrations.find((migration) => migration.index === entries.length + offset)?.entries ?? []) : []));
    const pinned = mine.filter((entry) => entry.ways !== undefined);
    const where = scope.length ? ` in ${scope.join(', ')}` : '';
    if (!pinned.length) throw new DriftError(`${split.id} is not reported${where} today, so there are no ways to pin: run drift diff and copy an id it prints. Nothing changed.`);
    const scenarios = new Set(pinned.flatMap((entry) => entry.ways!.flatMap((way) => way.scenarios)));
    const ways = new Set(pinned.flatMap((entry) => entry.ways!.map((way) => way.providers.join(','))));
    return {
      append: pinned.map((entry) => ({ facet: entry.facet!, subject: entry.subject!, ...(entry.scenario !== undefined ? { scenario: entry.scenario } : {}), ways: entry.ways!, reason })),
      said: [`accepted ${split.id} in ${shown}, its ways pinned: ${[...ways].map((providers) => providers.split(',').join(', ')).join(' | ')} over ${plural(scenarios.size, 'scenario')}`],
    };
  });
}

/**
 * The ids a cause id stands for: its consequences, as a run of its provider (the scenarios of `-s`, else
 * all) reports them today. A cause id names a line, which moves with the code; its consequences' ids do
 * not, so those are what the entries record. Other ids pass through; order is kept, duplicates dropped.
 */
async function expandCauses(cli: Invocation, command: Command, project: Project, ids: readonly string[], scope: string[]): Promise<{ ids: string[]; said: string[] }> {
  const [{ placeOfCauseId }, { selectProject }, { diffProject }, { buildReport }, { progressFor }] = await Promise.all([
    import('../compare/findingId.js'),
    import('../config/load.js'),
    import('../pipeline/diffRun.js'),
    import('../report/model.js'),
    import('./progress.js'),
  ]);
  const causes = ids.flatMap((id) => {
    const cause = placeOfCauseId(id);
    return cause ? [{ id, ...cause }] : [];
  });
  if (!causes.length) return { ids: [...ids], said: [] };
  const consequences = new Map<string, string[]>();
  for (const provider of new Set(causes.map((cause) => cause.provider))) {
    if (!project.adapters.some((adapter) => adapter.name === provider)) throw new DriftError(`${causes.find((cause) => cause.provider === provider)!.id} names ${provider}, which is not a provider of this project. Nothing changed.`);
    const selected = selectProject(project, [provider], scope);
    const progress = progressFor(cli, [provider], globalOptions(command).verbose);
    const { run, findings } = await diffProject({ full: project, project: selected, filters: { providers: [provider], scenarios: scope } }).finally(() => progress.done());
    const failed = run.providers.find((one) => one.error);
    if (failed) throw new DriftError(`cannot tell the consequences of a cause from a render that failed: ${failed.error}. Nothing changed.`);
    const report = buildReport(selected.adapters.map((adapter) => adapter.name), selected.scenarios.map((scenario) => scenario.name), findings);
    for (const cause of causes.filter((one) => one.provider === provider)) {
      const found = report.findings.find((finding) => finding.id === cause.id);
      const where = scope.length ? ` in ${scope.join(', ')}` : '';
      if (!found?.consequences) throw new DriftError(`${cause.id} is not reported${where} today (its code may have moved or changed): run drift diff and copy the cause id it prints, or accept its findings by their own ids. Nothing changed.`);
      consequences.set(cause.id, found.consequences.map((finding) => finding.id));
    }
  }
  const expanded = [...new Set(ids.flatMap((id) => consequences.get(id) ?? [id]))];
  return { ids: expanded, said: [...consequences].map(([id, of]) => `${id} is ${plural(of.length, 'finding')}: ${of.join(', ')}`) };
}

export function registerAccept(program: Command, cli: Invocation): void {
  program
    .command('accept <finding-id...>')
    .description('accept divergence, split, rule, style or locked findings by id, with a reason, in goldens/accepted.yaml: every scenario each shows in, or those -s names; a cause id accepts each of its consequences')
    .requiredOption('-r, --reason <text>', 'why the difference is intended')
    .option('-s, --scenario <name>', 'only in this scenario (repeatable); every scenario the finding shows in when absent', collect, [])
    .action(async (given: string[], options: { reason: string; scenario: string[] }, command: Command) => {
      const asked = [...new Set(given)];
      for (const id of asked) {
        const why = notAcceptable(id);
        if (why) throw new DriftError(`${why}. Nothing changed.`);
      }
      const reason = options.reason.trim();
      if (reason.length < 3) throw new DriftError('--reason must say why the difference is intended');
      const project = await fullProject(command, cli);
      const known = new Set(project.scenarios.map((scenario) => scenario.name));
      const unknown = options.scenario.filter((scenario) => !known.has(scenario));
      if (unknown.length) throw new DriftError(`-s ${unknown.join(', ')}: no such scenario; the project's are ${[...known].sort().join(', ')}. Nothing changed.`);
      const scope = [...new Set(options.scenario)].sort();
      const { legacyIdOf, factsOfId, respelledId } = await import('../compare/findingId.js');
      for (const id of asked) {
        const legacy = legacyIdOf(id, known);
        if (legacy) throw new DriftError(`"${id}" is an id of an older drift, which named the scenario; this drift reports it as ${legacy.id} (one finding for every scenario that shows it): accept that id, or run \`drift migrate\` to rewrite the ids already in goldens/accepted.yaml. Nothing changed.`);
        // Written as printed, an entry holds the id the report shows, and needs no quotes in a shell.
        const respelled = respelledId(id);
        if (respelled !== id) throw new DriftError(`"${id}" is an id as an older drift spelled it; this drift prints it as ${respelled}: accept that id, or run \`drift migrate\` to respell the ids already in goldens/accepted.yaml. Nothing changed.`);
      }
      // Loaded when the command runs, not at start: `drift --version` and `--help` need none of it.
      const [{ underLock }, { appendAcceptedEntry, replaceAcceptedEntries }, { acceptedPath, loadAccepted }, { GoldenStore }, { writeContract }] = await Promise.all([
        import('./fileLock.js'),
        import('../config/acceptedText.js'),
        import('../goldens/acceptedStore.js'),
        import('../goldens/store.js'),
        import('./contractWrite.js'),
      ]);
      refuseUnless(project.policy.write, 'accepted');
      // A cause is accepted as its consequences: their ids name no line, so the entries outlive the code moving.
      const { ids, said: expansions } = await expandCauses(cli, command, project, asked, scope);
      const file = acceptedPath(project);
      const shown = shownPath(cli, file);
      const entries = loadAccepted(project);
      // What each id asks, each covered finding as the entry would match it: one per scenario of -s, or one for all.
      const findingsOf = (id: string): Finding[] => {
        const base = (factsOfId(id) ?? { id }) as Finding;
        return scope.length ? scope.map((scenario) => ({ ...base, scenario })) : [base];
      };
      const plans: Plan[] = [];
      const splits: Array<{ id: string; subject: string; facet: string }> = [];
      for (const id of ids) {
        // A provider that joined, left or broke the ways an accepted split pins is added to that entry.
        const onto = await ontoWays(cli, command, project, entries, shown, id, reason, scope);
        if (onto) {
          plans.push(onto);
          continue;
        }
        // Checked before anything is created on disk, and again under the lock, where it counts.
        for (const finding of findingsOf(id)) await refuseIfCovered(file, shown, readIfThere(file), finding);
        const facts = factsOfId(id);
        if (facts?.type === 'split') {
          splits.push({ id, subject: facts.subject, facet: facts.facet! });
          continue;
        }
        const where = scope.length ? ` (in ${scope.join(', ')})` : '';
        plans.push({ append: findingsOf(id).map((finding) => ({ id, ...(finding.scenario !== undefined ? { scenario: finding.scenario } : {}), reason })), said: [`accepted ${id}${where} in ${shown}`] });
      }
      if (splits.length) plans.push(...(await pinnedSplits(cli, command, project, entries, shown, splits, reason, scope)));
      // From the lock to the contract: a signal during them ends drift once both are written whole.
      const { holdingWrites } = await import('../goldens/atomicFile.js');
      await holdingWrites(async () => {
        mkdirSync(path.dirname(file), { recursive: true });
        await underLock(file, shown, async () => {
          let text = readIfThere(file);
          const replacements = new Map(plans.flatMap((plan) => (plan.replace ? [[plan.replace.index, [plan.replace.entry]] as const] : [])));
          if (replacements.size) {
            if (text === undefined) throw new DriftError(`${shown} disappeared while drift rendered. Nothing changed.`);
            text = replaceAcceptedEntries(text, replacements, shown);
          }
          for (const plan of plans) {
            for (const entry of plan.append) {
              if ('id' in entry) await refuseIfCovered(file, shown, text, { ...(factsOfId(entry.id) ?? { id: entry.id }), ...(entry.scenario !== undefined ? { scenario: entry.scenario } : {}) } as Finding);
              text = appendAcceptedEntry(text, entry, shown);
            }
          }
          GoldenStore.of(project).writeAccepted(text!);
        });
        for (const line of expansions) cli.io.stdout.write(`${line}\n`);
        for (const plan of plans) for (const line of plan.said) cli.io.stdout.write(`${line}\n`);
        // The contract lists accepted entries with their reasons: it changes with them, where the project keeps one.
        for (const written of writeContract(cli, project, { ifAdopted: true })) cli.io.stdout.write(`written ${written}\n`);
      });
      cli.io.stdout.write('drift diff lists them under accepted; an entry that matches no finding is reported as stale.\n');
    });
}
