/**
 * Nothing drift prints drives the terminal (issue 39, item 3): an accepted id carrying an OSC sequence
 * that would retitle the window reaches `drift migrate`'s and `drift diff`'s text as escapes, while
 * `--format json` keeps the id exact. The escaper sits where text leaves drift (cli/main.ts wraps
 * the streams: src/util/terminal.ts), so every command and message is covered.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { escapeTerminal } from '../../src/util/terminal.js';
import { runDrift } from '../helpers/drift.js';
import { copyProject, type ProjectCopy } from '../helpers/project.js';

const HOSTILE = 'div:converge:x\u001b]0;owned\u0007:colour:gke';
const SHOWN = 'x\\x1b]0;owned\\x07:colour:gke';
/** Raw C0 controls but newline, DEL and C1: what may not reach a terminal. */
// oxlint-disable-next-line no-control-regex -- what the test looks for
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('escapeTerminal', () => {
  it('shows control characters as escapes and keeps newlines and tabs', () => {
    expect(escapeTerminal('a\u001b]0;t\u0007b\rc\u007fd\u009be\n\tf')).toBe('a\\x1b]0;t\\x07b\\x0dc\\u007fd\\u009be\n\tf');
    expect(escapeTerminal('plain text')).toBe('plain text');
  });

  it("keeps drift's colours only when asked (a terminal), and escapes every other sequence then too", () => {
    const colored = '\u001b[31mred\u001b[39m';
    expect(escapeTerminal(colored, { styles: true })).toBe(colored);
    expect(escapeTerminal(colored)).toBe('\\x1b[31mred\\x1b[39m');
    expect(escapeTerminal('\u001b[2A\u001b]0;x\u0007', { styles: true })).toBe('\\x1b[2A\\x1b]0;x\\x07');
  });

  it('leaves JSON reading back the same', () => {
    const json = JSON.stringify({ id: 'a\u001b\u0007\u007f\u009b' });
    expect(JSON.parse(escapeTerminal(json))).toEqual({ id: 'a\u001b\u0007\u007f\u009b' });
  });
});

describe('a hostile accepted id', () => {
  const copies: ProjectCopy[] = [];
  /** A copy of the project whose accepted list ends with the hostile id. */
  function hostile(): string {
    const copy = copyProject({ prefix: 'drift-terminal-' });
    copies.push(copy);
    const file = path.join(copy.dir, 'goldens/accepted.yaml');
    writeFileSync(file, `${readFileSync(file, 'utf8').replace(/\n?$/, '\n')}  - id: ${JSON.stringify(HOSTILE)}\n    reason: hostile\n`);
    return copy.dir;
  }
  afterAll(() => copies.forEach((copy) => copy.remove()));

  it('reaches drift migrate as escapes', async () => {
    const run = await runDrift(['migrate'], hostile());
    expect(run.exitCode, run.all).toBe(0);
    // Respelled as ids are spelled now (src/compare/findingId.ts): what it becomes has no control left.
    expect(run.stdout).toContain(`div:converge:${SHOWN} is now div:x-}0-owned:colour:gke, kept to scenario converge`);
    expect(run.all).not.toMatch(RAW);
  });

  it('reaches drift diff as escapes, and its JSON report exact', async () => {
    const dir = hostile();
    // The stale entry is listed with the accepted findings, which --verbose prints one by one.
    const text = await runDrift(['diff', '--verbose'], dir);
    expect(text.stdout).toContain(`(div:converge:${SHOWN}) matches no finding any more`);
    expect(text.all).not.toMatch(RAW);
    const json = await runDrift(['diff', '--format', 'json'], dir);
    // Parsed, the report holds the id exactly as accepted.yaml does, control characters and all.
    const strings: string[] = [];
    JSON.parse(json.stdout, (_key, value: unknown) => (typeof value === 'string' && strings.push(value), value));
    expect(strings.some((value) => value.includes(HOSTILE)), json.stdout.slice(0, 500)).toBe(true);
  });
});
