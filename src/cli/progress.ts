import path from 'node:path';
import type { Project } from '../config/types.js';
import type { OnEvent, RunEvent } from '../pipeline/events.js';
import type { Invocation } from './io.js';
import { compareText } from '../util/objects.js';

/**
 * One live line per provider on a terminal (phase, scenarios rendered / total); nothing unless the
 * run policy asks for progress (a terminal, not CI), so logs stay clean.
 */
function liveProgress(cli: Invocation, providers: string[]): OnEvent | undefined {
  if (!cli.policy.run.progress) return undefined;
  const lines = new Map(providers.map((provider) => [provider, 'waiting']));
  const totals = new Map<string, number>();
  const rendered = new Map<string, number>();
  let drawn = 0;
  const width = Math.max(...providers.map((p) => p.length));
  const draw = () => {
    let out = drawn ? `\u001b[${drawn}A` : '';
    for (const [provider, line] of lines) out += `\u001b[2K${provider.padEnd(width)}  ${line}\n`;
    drawn = lines.size;
    // Cursor moves of drift's own, past the terminal escaper (the provider names are checked names).
    (cli.io.stderr.raw ?? cli.io.stderr).write(out);
  };
  return (event) => {
    const { provider } = event;
    const total = totals.get(provider) ?? 0;
    const done = rendered.get(provider) ?? 0;
    const counted = (phase: string, n: number) => `${phase} ${n}/${total} scenarios`;
    switch (event.type) {
      case 'provider-starting':
        totals.set(provider, event.scenarios);
        lines.set(provider, 'starting');
        break;
      case 'provider-started':
        lines.set(provider, counted('rendering', 0));
        break;
      case 'provider-failed':
        lines.set(provider, 'failed');
        break;
      case 'cell-rendered':
        rendered.set(provider, done + 1);
        // Once every scenario has rendered, what is left is replays and ablations.
        lines.set(provider, counted(done + 1 === total ? 'analyzing' : 'rendering', done + 1));
        break;
      case 'cell-done':
      case 'source-outlined':
        return;
      case 'provider-stopped':
        lines.set(provider, counted('done', done));
        break;
    }
    draw();
  };
}

/** --verbose: collects process start-up and per-render wall times from the run's events, printed once it ends. */
function timings(cli: Invocation): { onEvent: OnEvent; print: () => void } {
  const events: RunEvent[] = [];
  return {
    onEvent: (event) => events.push(event),
    print: () => {
      const starts = events.flatMap((e) => (e.type === 'provider-started' || e.type === 'provider-failed' ? [e] : [])).sort((a, b) => compareText(a.provider, b.provider));
      const renders = events.flatMap((e) => (e.type === 'cell-rendered' ? [e] : [])).sort((a, b) => compareText(a.provider, b.provider) || compareText(a.scenario, b.scenario));
      const calls = events.reduce((sum, e) => sum + (e.type === 'provider-stopped' ? e.calls : 0), 0);
      const lines = starts.map((start) => `start  ${start.provider.padEnd(12)} ${start.ms.toFixed(0).padStart(6)} ms${start.type === 'provider-failed' ? '  (failed)' : ''}`);
      for (const render of renders) lines.push(`render ${`${render.provider}/${render.scenario}`.padEnd(36)} ${render.ms.toFixed(0).padStart(6)} ms  ${render.steps} steps`);
      lines.push(`${calls} RunFunction calls`);
      const outlines = events.flatMap((e) => (e.type === 'source-outlined' ? [e] : [])).sort((a, b) => compareText(a.provider, b.provider));
      for (const o of outlines) lines.push(`source ${o.provider.padEnd(12)} ${String(o.files).padStart(3)} files ${String(o.definitions).padStart(4)} definitions  parse ${o.ms.toFixed(1).padStart(6)} ms  ruff ${o.formatterMs.toFixed(0).padStart(5)} ms  (${o.ruff})`);
      cli.io.stderr.write(`${lines.join('\n')}\n`);
    },
  };
}

/** The event consumers a command's flags ask for, as one. */
export function progressFor(cli: Invocation, providers: string[], verbose: boolean | undefined): { onEvent?: OnEvent; done: () => void } {
  const live = liveProgress(cli, providers);
  const timed = verbose ? timings(cli) : undefined;
  const noted = notes(cli);
  const consumers = [live, timed?.onEvent, noted.onEvent].filter((consumer): consumer is OnEvent => consumer !== undefined);
  return {
    ...(consumers.length ? { onEvent: (event: RunEvent) => consumers.forEach((consumer) => consumer(event)) } : {}),
    done: () => {
      timed?.print();
      noted.print();
    },
  };
}

/** What the run could not check and says once on stderr, with the providers it concerns (no ruff to be had). */
function notes(cli: Invocation): { onEvent: OnEvent; print: () => void } {
  const byNote = new Map<string, string[]>();
  return {
    onEvent: (event) => {
      if (event.type === 'source-outlined' && event.note) byNote.set(event.note, [...(byNote.get(event.note) ?? []), event.provider]);
    },
    print: () => {
      for (const [note, providers] of byNote) cli.io.stderr.write(`drift: note (${[...providers].sort().join(', ')}): ${note}\n`);
    },
  };
}

/** Temporary files of an interrupted golden write that this run removed: said once, on stderr. */
export function reportSwept(cli: Invocation, swept: string[], project: Project): void {
  const dir = path.resolve(project.config.root, project.config.goldens);
  for (const file of swept) cli.io.stderr.write(`drift: removed ${path.relative(cli.io.cwd, path.join(dir, file))}, left by an interrupted write\n`);
}
