/** The formatter rule: the real ruff (the provider's own, else drift's), on the style fixtures. */
import path from 'node:path';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { formattingFindings } from '../../src/compare/formatting.js';
import type { Adapter } from '../../src/config/types.js';
import { managedRuffEnvironment, runFormatter, RUFF_VERSION } from '../../src/outline/formatter.js';
import { readSources } from '../../src/outline/read.js';
import type { Environment } from '../../src/util/envVars.js';
import { REPO, tempDir } from '../helpers/project.js';
import { fixtureAdapter } from '../helpers/style.js';

const PYTHON = path.join(REPO, '.venv/bin/python');

async function check(name: string, python = PYTHON) {
  const adapter = { ...fixtureAdapter(name), function: { command: [python], cwd: '', env: {} } } as Adapter;
  const files = (await readSources(adapter)).map((source) => source.path);
  return formattingFindings(await runFormatter(adapter, files, process.env), `test/fixtures/style/${name}`);
}

describe('formatting is a rule: ruff format --check and ruff check with the committed config', () => {
  it('passes on providers in the house style', async () => {
    expect(await check('alpha')).toEqual([]);
  });

  it('names the file left unformatted and the first line the formatter would change', async () => {
    expect(await check('unformatted')).toEqual([
      expect.objectContaining({
        id: 'style:format:ruff-format:unformatted',
        type: 'style',
        class: 'stylistic',
        provider: 'unformatted',
        values: { files: ['test/fixtures/style/unformatted/function/composer.py:36'] },
      }),
    ]);
  });

  it('reports what the linter finds, with file:line and rule', async () => {
    const [finding] = await check('camel-constant');
    expect(finding).toMatchObject({ id: 'style:lint:ruff-check:camel-constant', values: { problems: [expect.stringMatching(/^test\/fixtures\/style\/camel-constant\/function\/composer\.py:11 N816 /)] } });
  });

  it("names the ruff that ran: the provider's own", async () => {
    const adapter = { ...fixtureAdapter('unformatted'), function: { command: [PYTHON], cwd: '', env: {} } } as Adapter;
    const report = await runFormatter(adapter, ['function/composer.py'], process.env);
    expect(report.ruff).toEqual({ origin: 'provider', version: RUFF_VERSION, describe: `ruff ${RUFF_VERSION} from the provider's Python environment` });
    expect(formattingFindings(report, 'x')[0]!.message).toContain(`ruff format (ruff ${RUFF_VERSION} from the provider's Python environment) would change 1 file`);
  });
});

const temps: Array<() => void> = [];
afterAll(() => temps.forEach((remove) => remove()));

/** A temporary Python environment: the bundled interpreter, linked, and nothing beside it yet. */
function pythonEnvironment(prefix: string): { dir: string; python: string } {
  const { dir, remove } = tempDir(prefix);
  temps.push(remove);
  mkdirSync(path.join(dir, 'env/bin'), { recursive: true });
  const python = path.join(dir, 'env/bin/python');
  symlinkSync(realpathSync(PYTHON), python);
  return { dir, python };
}

describe('a function environment without ruff', () => {
  /** A Python environment as a real repository's lock file may leave it: an interpreter, no ruff beside it. */
  function withoutRuff(): { python: string; env: Environment } {
    const { dir, python } = pythonEnvironment('drift-noruff-');
    return { python, env: { ...process.env, DRIFT_CACHE_DIR: path.join(dir, 'cache') } };
  }

  it(`gets ruff ${RUFF_VERSION} installed by drift once, with the same findings and no absolute path`, async () => {
    const { python, env } = withoutRuff();
    const adapter = { ...fixtureAdapter('unformatted'), function: { command: [python], cwd: '', env: {} } } as Adapter;
    const files = (await readSources(adapter)).map((source) => source.path);
    const [first, second] = await Promise.all([runFormatter(adapter, files, env), runFormatter({ ...adapter, name: 'again' }, files, env)]);
    expect(first.ruff).toEqual({ origin: 'drift', version: RUFF_VERSION, describe: `ruff ${RUFF_VERSION}, installed by drift (none in the provider's Python environment)` });
    expect(first.note).toBeUndefined();
    expect(first.error).toBeUndefined();
    // The same files and lines as the provider's own ruff finds.
    const own = await runFormatter({ ...adapter, function: { ...adapter.function, command: [PYTHON] } }, files, process.env);
    expect(first.unformatted).toEqual(own.unformatted);
    expect(first.lint).toEqual(own.lint);
    expect(second.unformatted).toEqual(own.unformatted);
    const findings = formattingFindings(first, 'test/fixtures/style/unformatted');
    expect(findings.map((finding) => finding.id)).toEqual(['style:format:ruff-format:unformatted']);
    expect(JSON.stringify(findings)).not.toMatch(/"\/|[ (]\/(?:tmp|root|home|work)\//);
    // Installed once: one environment in the cache, none half-made beside it.
    expect(readdirSync(env.DRIFT_CACHE_DIR!)).toEqual([`ruff-${RUFF_VERSION}`]);
    expect(existsSync(managedRuffEnvironment(env, process.cwd()))).toBe(true);
  }, 180_000);

  it('is one note and no finding when no ruff can be had at all', async () => {
    const { env } = withoutRuff();
    const adapter = { ...fixtureAdapter('alpha'), function: { command: ['/nonexistent/bin/python'], cwd: '', env: {} } } as Adapter;
    const report = await runFormatter(adapter, ['function/composer.py'], env);
    expect(report.ruff).toBeUndefined();
    expect(report.note).toMatch(/^formatting not checked: no ruff in the provider's Python environment, and drift could not install ruff /);
    expect(report.note).not.toContain('/nonexistent');
    expect(formattingFindings(report, 'x')).toEqual([]);
  });
});

describe('providers checked at once', () => {
  /** The bundled environment's ruff behind a script that logs each run's subcommand. */
  function loggedRuff(): { python: string; log: string } {
    const { dir, python } = pythonEnvironment('drift-ruff-log-');
    const log = path.join(dir, 'runs.log');
    const ruff = path.join(dir, 'env/bin/ruff');
    writeFileSync(ruff, `#!/bin/sh\necho "$1" >> '${log}'\nexec '${path.join(REPO, '.venv/bin/ruff')}' "$@"\n`);
    chmodSync(ruff, 0o755);
    return { python, log };
  }

  /** As a run asks: every provider's sources read first, then all formatter runs in one turn. */
  async function reports(names: readonly string[], python: string) {
    const adapters = names.map((name) => ({ ...fixtureAdapter(name), function: { command: [python], cwd: '', env: {} } }) as Adapter);
    const files = await Promise.all(adapters.map(async (adapter) => (await readSources(adapter)).map((source) => source.path)));
    return Promise.all(
      adapters.map(async (adapter, index) => {
        const { unformatted, lint, error } = await runFormatter(adapter, files[index]!, process.env);
        return { unformatted, lint, error };
      }),
    );
  }

  const alone = async (names: readonly string[]) => (await Promise.all(names.map((name) => reports([name], PYTHON)))).flat();

  it('share one ruff process per tool and get the reports each gets alone', async () => {
    const names = ['alpha', 'unformatted', 'camel-constant'];
    const { python, log } = loggedRuff();
    expect(await reports(names, python)).toEqual(await alone(names));
    expect(readFileSync(log, 'utf8').split('\n').filter(Boolean).sort()).toEqual(['--version', 'check', 'format']);
  });

  it('each run alone when the shared run fails: the failure stays with its provider', async () => {
    const names = ['alpha', 'broken-syntax', 'unformatted'];
    const together = await reports(names, loggedRuff().python);
    const separate = await alone(names);
    expect(together).toEqual(separate);
    expect(together[1]!.error).toMatch(/exit code 2/);
    expect(together[0]!.error).toBeUndefined();
  });
});
