/** bin/drift.js runs the bundle only when it was made from the dist/ modules beside it. */
import { appendFileSync, mkdirSync, rmSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyPackage, runDriftProcess } from '../helpers/drift.js';
import { REPO, tempDir } from '../helpers/project.js';

describe('a stale bundle', () => {
  let pkg: ReturnType<typeof copyPackage>;
  let cwd: ReturnType<typeof tempDir>;
  beforeAll(() => {
    pkg = copyPackage();
    cwd = tempDir('drift-stale-bundle-');
  });
  afterAll(() => {
    pkg.remove();
    cwd.remove();
  });

  it('runs when the bundle is as new as its modules', async () => {
    const run = await runDriftProcess(['--version'], cwd.dir, {}, pkg.bin);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
  });

  it('is refused in a checkout, exit 2, when tsc rebuilt the modules after it, and says how to bundle again', async () => {
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(pkg.dir, 'dist/cli/main.js'), later, later);
    mkdirSync(path.join(pkg.dir, 'src'));
    const run = await runDriftProcess(['rules'], cwd.dir, {}, pkg.bin);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/drift: .*drift\.cjs is older than the modules beside it \(dist\/cli\/main\.js\).*Run `npm run build`/);
  });

  it('is not judged by its times in an installed package (no src/), where npm extracts files in their order', async () => {
    rmSync(path.join(pkg.dir, 'src'), { recursive: true, force: true });
    const run = await runDriftProcess(['--version'], cwd.dir, {}, pkg.bin);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
  });
});

describe("drift's own outline queries", () => {
  it('a query that does not compile makes drift exit 2 naming the query file, not a crash', async () => {
    const pkg = copyPackage();
    try {
      appendFileSync(path.join(pkg.dir, 'queries/python/call.scm'), '\n((call function: (identifier) @broken)\n');
      const run = await runDriftProcess(['diff', '-p', 'gke', '-s', 'converge'], REPO, { DRIFT_CACHE_DIR: path.join(pkg.dir, 'cache') }, pkg.bin);
      expect(run.stderr).toMatch(/queries\/python\/call\.scm: drift's outline query does not compile/);
      expect(run.stderr).not.toMatch(/internal error/);
      expect(run.exitCode).toBe(2);
    } finally {
      pkg.remove();
    }
  });
});
