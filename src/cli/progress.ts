import { isCI } from '../util/ci.js';
import type { Analysis } from '../analyze.js';
import type { OutlinedSource } from '../pipeline/sources.js';
import type { Progress } from '../render/matrix.js';

/**
 * One live line per provider on a terminal (scenarios done / total, phase); nothing when stderr is
 * not a TTY or CI is set, so logs stay clean.
 */
export function liveProgress(providers: string[]): ((progress: Progress) => void) | undefined {
  if (!process.stderr.isTTY || isCI()) return undefined;
  const lines = new Map(providers.map((provider) => [provider, 'waiting']));
  let drawn = 0;
  const width = Math.max(...providers.map((p) => p.length));
  const draw = () => {
    let out = drawn ? `\u001b[${drawn}A` : '';
    for (const [provider, line] of lines) out += `\u001b[2K${provider.padEnd(width)}  ${line}\n`;
    drawn = lines.size;
    process.stderr.write(out);
  };
  return (progress) => {
    const counts = progress.phase === 'starting' || progress.phase === 'failed' ? '' : ` ${progress.done}/${progress.total} scenarios`;
    lines.set(progress.provider, `${progress.phase}${counts}`);
    draw();
  };
}

/** --verbose: each provider's outline (files, definitions, parse time) and formatter run, to stderr. */
export function printOutlines(outlined: OutlinedSource[]): void {
  const lines = outlined.map(({ adapter, result, formatter }) => {
    const files = Object.values(result.outline.files);
    const definitions = files.reduce((sum, file) => sum + Object.keys(file.functions).length + Object.values(file.classes).reduce((n, cls) => n + 1 + Object.keys(cls.methods).length, 0), 0);
    return `source ${adapter.name.padEnd(12)} ${String(files.length).padStart(3)} files ${String(definitions).padStart(4)} definitions  parse ${result.ms.toFixed(1).padStart(6)} ms  ruff ${formatter.ms.toFixed(0).padStart(5)} ms`;
  });
  if (lines.length) process.stderr.write(`${lines.join('\n')}\n`);
}

/** --verbose: process start-up and per-render wall times, to stderr. */
export function printTimings(analysis: Pick<Analysis, 'starts' | 'timings' | 'calls'>): void {
  const lines = analysis.starts.map((start) => `start  ${start.provider.padEnd(12)} ${start.ms.toFixed(0).padStart(6)} ms${start.error ? '  (failed)' : ''}`);
  for (const timing of analysis.timings) lines.push(`render ${`${timing.provider}/${timing.scenario}`.padEnd(36)} ${timing.ms.toFixed(0).padStart(6)} ms  ${timing.steps} steps`);
  lines.push(`${analysis.calls} RunFunction calls`);
  process.stderr.write(`${lines.join('\n')}\n`);
}
