/**
 * Name suffixes a function derives itself, whatever their length, are templated to `{hash}` in the
 * goldens; suffixes that do not change with the XR's name stay literal, however hash-like. Seeded
 * copies of the GKE function, through the built CLI (`drift update`, then the golden as written).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { runDrift } from '../helpers/drift.js';
import { copyProject, hashGoldens, mutate, replaceExactly } from '../helpers/project.js';

const SLOW = 180_000;
const copies: Array<() => void> = [];
afterAll(() => copies.forEach((remove) => remove()));

interface Golden {
  resources: Record<string, { writes?: string; reads?: string[] }>;
  status: { secrets: Array<{ type: string; name: string }> };
}

/** A copy whose gke function names its Secrets as `change` says, with gke's converge golden rewritten. */
async function seededGke(change: (composer: string) => string): Promise<{ dir: string; text: string; golden: Golden }> {
  const { dir, remove } = copyProject({ prefix: 'drift-derived-' });
  copies.push(remove);
  mutate(dir, 'gke', 'function/composer.py', change);
  const update = await runDrift(['update', '--provider', 'gke', '--scenario', 'converge'], dir);
  expect(update.exitCode, update.all).toBe(0);
  const text = readFileSync(path.join(dir, 'goldens/gke/converge.yaml'), 'utf8');
  return { dir, text, golden: parse(text) as Golden };
}

const KUBECONFIG = '        self.kubeconfig_secret = f"{self.name}-kubeconfig"\n';
const IDENTITY = '        self.identity_secret = f"{self.name}-gcp-credentials"\n';

describe('name suffixes in the goldens', () => {
  it('a 5-hex suffix the function derives from the XR name is {hash} wherever the name is written, and stays so run after run', async () => {
    const { dir, text, golden } = await seededGke((composer) =>
      replaceExactly(
        replaceExactly(composer, 'from string import ascii_lowercase\n', 'from hashlib import sha256\nfrom string import ascii_lowercase\n'),
        KUBECONFIG,
        '        suffix = sha256(self.name.encode()).hexdigest()[:5]\n        self.kubeconfig_secret = f"{self.name}-{suffix}-kubeconfig"\n',
      ),
    );
    const literal = createHash('sha256').update('demo').digest('hex').slice(0, 5);
    expect(text).not.toContain(literal);
    expect(golden.resources.cluster!.writes).toBe('{xr}-{hash}-kubeconfig');
    expect(golden.resources['provider-config-kubernetes']!.reads).toEqual(['{namespace}/{xr}-{hash}-kubeconfig:kubeconfig']);
    expect(golden.status.secrets.find((secret) => secret.type === 'Kubeconfig')!.name).toBe('{xr}-{hash}-kubeconfig');
    // Determinism: the same run again writes the same bytes.
    const before = hashGoldens(dir);
    const again = await runDrift(['update', '--provider', 'gke', '--scenario', 'converge'], dir);
    expect(again.exitCode, again.all).toBe(0);
    expect(hashGoldens(dir)).toEqual(before);
  }, SLOW);

  it('suffixes that stay the same under another XR name are literal: abcde, subnet-a', async () => {
    const { golden } = await seededGke((composer) =>
      replaceExactly(
        replaceExactly(composer, KUBECONFIG, '        self.kubeconfig_secret = f"{self.name}-abcde-kubeconfig"\n'),
        IDENTITY,
        '        self.identity_secret = f"{self.name}-subnet-a"\n',
      ),
    );
    expect(golden.resources.cluster!.writes).toBe('{xr}-abcde-kubeconfig');
    expect(golden.status.secrets.map((secret) => secret.name)).toEqual(['{xr}-abcde-kubeconfig', '{xr}-subnet-a']);
  }, SLOW);
});
