import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/project.js';

describe('the source layout', () => {
  it('names each module once across the layers (but index.ts and types.ts), so a file name says which module it is', () => {
    const names = readdirSync(path.join(REPO, 'src'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => entry.name);
    const repeated = [...new Set(names.filter((name, index) => names.indexOf(name) !== index))].sort();
    expect(repeated.filter((name) => name !== 'index.ts' && name !== 'types.ts')).toEqual([]);
  });
});
