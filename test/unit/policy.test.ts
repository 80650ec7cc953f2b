/** The write and run policies: resolved once at the CLI edge from the environment; nothing else reads `CI`. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCAL_POLICY, refuseUnless, resolvePolicy } from '../../src/util/ci.js';
import { REPO } from '../helpers/project.js';

const SRC = path.join(REPO, 'src');
const sources = (readdirSync(SRC, { recursive: true, encoding: 'utf8' }) as string[]).filter((file) => file.endsWith('.ts')).map((file) => file.split(path.sep).join('/'));
const text = (file: string) => readFileSync(path.join(SRC, file), 'utf8');

describe('resolvePolicy', () => {
  it('under CI writes nothing, is strict and draws no progress, even on a terminal', () => {
    for (const value of ['true', '1', 'yes']) {
      const policy = resolvePolicy({ CI: value }, true);
      expect(policy.write.may).toEqual({ goldens: false, accepted: false, contract: false });
      expect(policy.run).toEqual({ strict: true, progress: false });
    }
  });

  it('outside CI (CI unset, empty, false or 0) writes everything, is lenient, and draws progress on a terminal only', () => {
    for (const env of [{}, { CI: '' }, { CI: 'false' }, { CI: '0' }]) {
      expect(resolvePolicy(env, true)).toEqual({ write: { may: { goldens: true, accepted: true, contract: true }, refusal: expect.any(String) }, run: { strict: false, progress: true } });
      expect(resolvePolicy(env, false).run.progress).toBe(false);
    }
    expect(LOCAL_POLICY).toEqual(resolvePolicy({}, false));
  });

  it('refuses with the message users have always seen', () => {
    expect(() => refuseUnless(resolvePolicy({ CI: 'true' }, false).write, 'accepted')).toThrow(
      'CI is set: drift never writes goldens in CI. Run `drift update` locally (or comment `/drift update` on the pull request) and commit the result.',
    );
    expect(() => refuseUnless(LOCAL_POLICY.write, 'goldens')).not.toThrow();
  });
});

describe('the edge', () => {
  it('only util/ci.ts reads CI from an environment', () => {
    const readers = sources.filter((file) => /\benv\s*(\.\s*CI\b|\[\s*['"`]CI['"`]\s*\])|\bisCI\b/.test(text(file)));
    expect(readers).toEqual(['util/ci.ts']);
  });

  it('only cli/main.ts resolves a policy; everything else is handed one', () => {
    const resolvers = sources.filter((file) => file !== 'util/ci.ts' && /\bresolvePolicy\s*\(/.test(text(file)));
    expect(resolvers).toEqual(['cli/main.ts']);
  });
});
