import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedValidator } from '../../src/config/validatorCache.js';
import { tempDir } from '../helpers/project.js';

const folder = tempDir('drift-validators-');
afterAll(() => folder.remove());
const cache = { enabled: true, folder: folder.dir };

const schema = {
  type: 'object',
  properties: { spec: { type: 'object', properties: { size: { type: 'integer', default: 3 }, name: { type: 'string' } }, additionalProperties: false } },
};
const options = { strict: false, useDefaults: true, allErrors: false };

describe('cachedValidator', () => {
  it('keeps the compiled validator, and the kept one defaults and rejects as the compiled one does', () => {
    const compiled = cachedValidator(schema, options, cache);
    expect(readdirSync(path.join(folder.dir, 'validators'))).toHaveLength(1);
    const kept = cachedValidator(schema, options, cache);
    expect(kept).not.toBe(compiled);
    for (const validate of [compiled, kept]) {
      const xr: { spec: Record<string, unknown> } = { spec: { name: 'a' } };
      expect(validate(xr)).toBe(true);
      expect(xr.spec.size).toBe(3);
      expect(validate({ spec: { colour: 'red' } })).toBe(false);
      expect(validate.errors?.[0]).toMatchObject({ keyword: 'additionalProperties', instancePath: '/spec', params: { additionalProperty: 'colour' } });
    }
  });

  it('keys by the schema: another schema is compiled and kept beside it', () => {
    cachedValidator({ ...schema, required: ['spec'] }, options, cache);
    expect(readdirSync(path.join(folder.dir, 'validators'))).toHaveLength(2);
  });
});
