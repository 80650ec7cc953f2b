/** drift's JSON Schemas compile in Ajv's strict mode, as drift compiles them: a loose schema fails here, not in a user's run. */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/project.js';

const SCHEMAS = path.join(REPO, 'schemas');
const files = readdirSync(SCHEMAS).filter((name) => name.endsWith('.schema.json')).sort();

describe('schemas/', () => {
  it('holds the schemas drift validates with', () => {
    expect(files).toEqual(expect.arrayContaining(['accepted.schema.json', 'drift-config.schema.json', 'provider.schema.json', 'report.schema.json', 'scenario.schema.json']));
  });

  for (const file of files) {
    it(`${file} compiles in strict mode`, () => {
      const schema = JSON.parse(readFileSync(path.join(SCHEMAS, file), 'utf8')) as object;
      expect(() => new Ajv({ strict: true }).compile(schema)).not.toThrow();
    });
  }
});
