/**
 * Random and hostile inputs, through the built CLI's main() in this process (runDrift: what
 * bin/drift.js calls; a process per case would not fit the budget): provider.yaml, a scenario, an
 * XRD, accepted.yaml and a report JSON, 200 cases each, with a fixed seed. Whatever the input, drift
 * exits 0, 1 or 2; a 2 names a file; nothing prints a stack trace; no case takes 10 s; and the
 * project tree is as it was, the fuzzed file aside.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDrift } from '../helpers/drift.js';
import { tempDir, writeFiles } from '../helpers/project.js';
import { syntheticReport } from '../helpers/reports.js';
import { within } from '../helpers/processes.js';

const SEED = 20_261_201;
const RUNS = 200;
const CASE_MS = 10_000;

const ADAPTER = `name: acme
function: {command: [python3, -m, function.main, --insecure, --address, "{address}"], cwd: .}
xrd: xrd.yaml
xr:
  apiVersion: example.org/v1
  kind: AcmeCluster
  spec:
    region: "\${values.region}"
    zones: "\${range(2).map(i, values.region + '-' + string(i))}"
    pools: "\${pools.map(p, {'name': p.name, 'nodeCount': p.nodeCount})}"
values: {region: eu}
`;
const SCENARIO = `description: One pool, everything Ready.
xr:
  nodePools: [{name: gpu, nodeCount: 1}]
`;
const XRD = stringify({
  apiVersion: 'apiextensions.crossplane.io/v2',
  kind: 'CompositeResourceDefinition',
  metadata: { name: 'acmeclusters.example.org' },
  spec: {
    group: 'example.org',
    names: { kind: 'AcmeCluster', plural: 'acmeclusters' },
    versions: [
      {
        name: 'v1',
        served: true,
        referenceable: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  region: { type: 'string', 'x-kubernetes-validations': [{ rule: 'size(self) > 0', message: 'region is empty' }] },
                  zones: { type: 'array', items: { type: 'string' } },
                  pools: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, nodeCount: { type: 'integer' } } } },
                },
              },
            },
          },
        },
      },
    ],
  },
});
const ACCEPTED = `accepted:
  - id: div:cluster.appears
    reason: the cloud needs a moment
`;
const REPORT = `${JSON.stringify(syntheticReport(2, 1), null, 2)}\n`;

/** Inputs no valid document is near: deep, wide, aliased, traversing, executing, binary. */
const HOSTILE = (depth: number, size: number): string[] => [
  `${'['.repeat(depth)}${']'.repeat(depth)}\n`,
  `${'{a: '.repeat(depth)}1${'}'.repeat(depth)}\n`,
  `a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n`,
  `name: "${'x'.repeat(size)}"\n`,
  'name: acme\nxrd: ../../../../../../etc/passwd\n',
  'name: acme\nsource: {root: /}\nfunction: {command: [x]}\nxr: {apiVersion: a/v1, kind: K}\n',
  `name: acme\nfunction: {command: [x]}\nxr: {apiVersion: example.org/v1, kind: AcmeCluster, spec: {region: "\${string(size(range(${10 ** depth})))}"}}\n`,
  `name: acme\nfunction: {command: [x]}\nxr: {apiVersion: example.org/v1, kind: AcmeCluster, spec: {region: "\${range(1000).map(i, range(1000).map(j, j))}"}}\n`,
  'x: !!js/function "function () { return 1 }"\n',
  '---\na: 1\n---\nb: 2\n',
  '\t\u0000\uFFFE\uD800 binary \u001b[31m',
  `{"tool": "drift", "schemaVersion": 1, "summary": ${'['.repeat(depth)}${']'.repeat(depth)}}`,
  `${'9'.repeat(size)}\n`,
  '',
];

/** A document near `valid`: spliced, truncated, or replaced by random data or a hostile input. */
function documents(valid: string): fc.Arbitrary<string> {
  const spliced = fc.tuple(fc.nat({ max: valid.length }), fc.nat({ max: 40 }), fc.string({ maxLength: 20, unit: 'binary' })).map(([at, cut, insert]) => valid.slice(0, at) + insert + valid.slice(at + cut));
  const truncated = fc.nat({ max: valid.length }).map((at) => valid.slice(0, at));
  const random = fc.jsonValue({ maxDepth: 6 }).map((value) => stringify(value));
  const hostile = fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 2, max: 5000 }), fc.nat()).map(([exponent, size, pick]) => {
    const list = HOSTILE(10 ** Math.min(exponent, 4) + (exponent > 4 ? 5000 : 0), size);
    return list[pick % list.length]!;
  });
  return fc.oneof({ arbitrary: spliced, weight: 3 }, { arbitrary: truncated, weight: 1 }, { arbitrary: random, weight: 2 }, { arbitrary: hostile, weight: 2 });
}

let project: { dir: string; remove: () => void };
beforeAll(() => {
  project = tempDir('drift-fuzz-');
  writeFiles(project.dir, {
    'drift.config.yaml': 'providers: providers/*/provider.yaml\nscenarios: scenarios/*.yaml\ngoldens: goldens\n',
    'providers/acme/provider.yaml': ADAPTER,
    'providers/acme/xrd.yaml': XRD,
    'scenarios/converge.yaml': SCENARIO,
    'goldens/accepted.yaml': ACCEPTED,
    'report.json': REPORT,
  });
});
afterAll(() => project.remove());

/** sha256 of every file of the project, by relative path. */
function tree(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else out[path.relative(project.dir, file)] = createHash('sha256').update(readFileSync(file)).digest('hex');
    }
  };
  walk(project.dir);
  return out;
}

const KINDS = [
  { kind: 'provider.yaml', file: 'providers/acme/provider.yaml', valid: ADAPTER, args: ['contract', '--check'] },
  { kind: 'scenario', file: 'scenarios/converge.yaml', valid: SCENARIO, args: ['contract', '--check'] },
  { kind: 'XRD', file: 'providers/acme/xrd.yaml', valid: XRD, args: ['contract', '--check'] },
  { kind: 'accepted.yaml', file: 'goldens/accepted.yaml', valid: ACCEPTED, args: ['contract', '--check'] },
  // The report is read (and refused, or rendered) before the token is asked for: no token, no network.
  { kind: 'report JSON', file: 'report.json', valid: REPORT, args: ['comment', '--repo', 'acme/widgets', '--pr', '7', '--report', 'report.json'] },
] as const;

describe('fuzzed and hostile inputs', () => {
  it('the valid project is what the cases start from: drift reads it', async () => {
    const check = await runDrift(['contract', '--check'], project.dir);
    expect([0, 1], check.stderr).toContain(check.exitCode);
    // The report is read and rendered; only then is the (missing) token asked for.
    const comment = await runDrift([...KINDS[4].args], project.dir, { GITHUB_TOKEN: '' });
    expect(comment.stderr).toContain('GITHUB_TOKEN is not set');
  });

  for (const { kind, file, valid, args } of KINDS) {
    it(`${kind}: exit 0, 1 or 2; a 2 names a file; no stack trace; within ${CASE_MS / 1000} s; nothing else on disk changes (${RUNS} cases)`, { timeout: 60_000 }, async () => {
      let slowest = 0;
      const exits = [0, 0, 0];
      await fc.assert(
        fc.asyncProperty(documents(valid), async (text) => {
          writeFileSync(path.join(project.dir, file), text);
          const before = tree();
          const began = performance.now();
          const run = await within(runDrift([...args], project.dir, { GITHUB_TOKEN: '' }), CASE_MS, `drift ${args.join(' ')} on a fuzzed ${file}`);
          const ms = performance.now() - began;
          slowest = Math.max(slowest, ms);
          exits[run.exitCode] = (exits[run.exitCode] ?? 0) + 1;
          expect([0, 1, 2], run.stderr).toContain(run.exitCode);
          if (run.exitCode === 2) expect(run.stderr, run.stderr).toMatch(/[\w.-]+\.(ya?ml|json)\b|GITHUB_TOKEN is not set/);
          expect(run.all).not.toMatch(/internal error|\n\s+at \S+ \(|Maximum call stack/);
          expect(tree()).toEqual(before);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      writeFileSync(path.join(project.dir, file), valid);
      console.log(`fuzz ${kind}: ${RUNS} cases (exit 0/1/2: ${exits.join('/')}), slowest ${slowest.toFixed(0)} ms`);
    });
  }
});
