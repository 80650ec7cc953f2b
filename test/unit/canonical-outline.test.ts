import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Adapter } from '../../src/config/types.js';
import { rememberCanonicalOutline, toCanonicalOutline } from '../../src/outline/canonicalOutline.js';
import { outlineAdapter } from '../../src/outline/read.js';
import { viaDocument } from '../../src/util/yaml.js';
import { bundledProviders, REPO } from '../helpers/project.js';

const bundled = bundledProviders();

describe('the canonical outline', () => {
  it('is written directly with the bytes the yaml library writes, for every bundled provider', async () => {
    for (const name of bundled) {
      const root = path.join(REPO, 'providers', name, 'function');
      const result = await outlineAdapter({ name, file: path.join(REPO, 'providers', name, 'provider.yaml'), source: { root, include: ['**/*.py'] } } as unknown as Adapter);
      expect(toCanonicalOutline(result!.outline), name).toBe(viaDocument(result!.outline));
    }
  });

  it('an outline from the cache is compared as the text it was kept with', () => {
    const outline = JSON.parse(JSON.stringify({ version: 1, files: {}, composes: {} })) as Parameters<typeof toCanonicalOutline>[0];
    rememberCanonicalOutline(outline, 'kept: text\n');
    expect(toCanonicalOutline(outline)).toBe('kept: text\n');
  });
});
