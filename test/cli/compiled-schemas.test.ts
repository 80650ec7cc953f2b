/** drift's own schemas compiled at build (scripts/compile-schemas.mjs), as the built CLI uses them. */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { compiledSchemaFile, SCHEMA_OPTIONS, schemaDigest } from '../../src/config/yamlFile.js';
import { driftBin } from '../helpers/drift.js';
import { REPO } from '../helpers/project.js';

const SCHEMAS = path.join(REPO, 'schemas');
const files = readdirSync(SCHEMAS).filter((name) => name.endsWith('.schema.json')).sort();

describe('schemas compiled at build', () => {
  // The build vitest's global set-up made, laid out as a published drift (test/global-setup.ts).
  const dist = path.join(path.dirname(path.dirname(driftBin())), 'dist');
  const require = createRequire(import.meta.url);
  const compiled = (file: string) => require(compiledSchemaFile(path.join(SCHEMAS, file), dist)) as { validate: ValidateFunction; digest: string };

  for (const file of files) {
    it(`${file}: the build's validator was compiled from this very text, so a run uses it`, () => {
      expect(compiled(file).digest).toBe(schemaDigest(readFileSync(path.join(SCHEMAS, file), 'utf8')));
    });
  }

  it('judges as the schema compiled at run time does, errors included', () => {
    const schema = JSON.parse(readFileSync(path.join(SCHEMAS, 'scenario.schema.json'), 'utf8')) as object;
    const atRunTime = new Ajv(SCHEMA_OPTIONS).compile(schema);
    const { validate } = compiled('scenario.schema.json');
    const documents = [{ description: 'ok', xr: { nodePools: [] } }, { description: 'ok', xr: { nodePools: [{ name: 7 }] } }, { xr: {} }, { description: 'x', xr: {}, unknown: 1 }, 'text'];
    const verdicts = (check: ValidateFunction) => documents.map((document) => [check(document), check.errors ?? null]);
    expect(verdicts(validate)).toEqual(verdicts(atRunTime));
    expect(verdicts(validate).filter(([valid]) => !valid).length).toBeGreaterThan(0);
  });

  it('is deterministic: compiling again gives the same bytes', async () => {
    const before = files.map((file) => readFileSync(compiledSchemaFile(path.join(SCHEMAS, file), dist), 'utf8'));
    await execa('node', [path.join(REPO, 'scripts/compile-schemas.mjs'), dist]);
    expect(files.map((file) => readFileSync(compiledSchemaFile(path.join(SCHEMAS, file), dist), 'utf8'))).toEqual(before);
  });
});
