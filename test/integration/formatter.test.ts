/** The formatter rule: the real ruff from the providers' Python environment, on the style fixtures. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formattingFindings } from '../../src/compare/formatting.js';
import type { Adapter } from '../../src/config/types.js';
import { runFormatter } from '../../src/outline/formatter.js';
import { readSources } from '../../src/outline/read.js';
import { REPO } from '../helpers/project.js';
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

  it('says so when the provider has no ruff of its own, instead of passing silently', async () => {
    const adapter = { ...fixtureAdapter('alpha'), function: { command: ['/nonexistent/bin/python'], cwd: '', env: {} } } as Adapter;
    const [finding] = formattingFindings(await runFormatter(adapter, ["function/composer.py"], process.env), 'x');
    expect(finding).toMatchObject({ id: 'style:source:ruff:alpha', type: 'error', message: expect.stringContaining('no ruff beside') });
  });
});
