/**
 * The on-disk caches keep no folder of their own: each read and write goes where the policy it is
 * handed says. Two projects loaded in one process (as `drift mcp` or a test process does) with
 * different policies each use their own, whichever was loaded last.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CachePolicy } from '../../src/cache/policy.js';
import { loadProject } from '../../src/config/load.js';
import { loadAccepted } from '../../src/goldens/acceptedStore.js';
import { REPO, tempDir } from '../helpers/project.js';

const temp = tempDir('drift-cache-policy-');
afterAll(() => temp.remove());

const entries = (folder: string, kind: string): string[] => (existsSync(path.join(folder, kind)) ? readdirSync(path.join(folder, kind)).sort() : []);

describe('the cache policy, passed in', () => {
  it('governs each project loaded in one process, not the one loaded last', async () => {
    const first: CachePolicy = { enabled: true, folder: path.join(temp.dir, 'first') };
    const second: CachePolicy = { enabled: true, folder: path.join(temp.dir, 'second') };
    const off: CachePolicy = { enabled: false, folder: path.join(temp.dir, 'off') };
    const config = path.join(REPO, 'drift.config.yaml');
    const one = await loadProject(config, REPO, {}, undefined, first);
    expect(entries(first.folder, 'documents').length).toBeGreaterThan(0);
    expect(entries(first.folder, 'validators').length).toBeGreaterThan(0);
    const two = await loadProject(config, REPO, {}, undefined, second);
    const none = await loadProject(config, REPO, {}, undefined, off);
    expect(existsSync(off.folder)).toBe(false);

    // Read after the others were loaded, the first project's accepted entries are kept in its folder only.
    rmSync(path.join(first.folder, 'documents'), { recursive: true });
    rmSync(path.join(second.folder, 'documents'), { recursive: true });
    const accepted = loadAccepted(one);
    expect(entries(first.folder, 'documents')).toHaveLength(1);
    expect(entries(second.folder, 'documents')).toEqual([]);
    expect(loadAccepted(none)).toEqual(accepted);
    expect(existsSync(off.folder)).toBe(false);
    expect(entries(second.folder, 'documents')).toEqual([]);
    expect(loadAccepted(two)).toEqual(accepted);
    expect(entries(second.folder, 'documents')).toHaveLength(1);
  });
});
