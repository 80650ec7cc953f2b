/**
 * `drift explain <id>` answers what the MCP server's explain tool answers for the same finding (one
 * function, src/mcp/explain.ts), after the diff that reports it: here a mutation seed's finding in
 * new-provider mode, in text and as JSON.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { driftTools, runDrift } from '../helpers/drift.js';
import { SEEDS, seeded } from '../helpers/mutationSeeds.js';
import { bundledProviders } from '../helpers/project.js';

const copies: Array<() => void> = [];
afterAll(() => copies.forEach((remove) => remove()));

describe('drift explain', () => {
  it("gives the MCP explain tool's answer for a finding diff -p prints, in text with file:line, and refuses an id diff does not print", async () => {
    const seed = SEEDS.find((one) => one.drift === "pools gated on the cluster's Ready condition")!;
    const { dir, remove } = seeded(seed);
    copies.push(remove);
    rmSync(path.join(dir, 'goldens', seed.provider), { recursive: true, force: true });
    const tools = await driftTools(dir);
    await tools.diff({ provider: 'aks', scenario: seed.scenarios });
    for (const id of seed.expected) {
      const json = await runDrift(['explain', id, '-s', 'converge', '--format', 'json'], dir);
      expect([json.exitCode, json.stderr], id).toEqual([0, '']);
      expect(JSON.parse(json.stdout), id).toEqual(JSON.parse(JSON.stringify(await tools.explain({ id }))));
      const text = await runDrift(['explain', id, '-s', 'converge'], dir);
      expect(text.exitCode).toBe(0);
      expect(text.stdout.split('\n')[0]).toBe(`${id} (${JSON.parse(json.stdout).type}, aks)`);
      expect(text.stdout).toMatch(/ {2}where: providers\/aks\/function\/\w+\.py:\d+\n/);
      // The convention is shown in another provider's code, by file and line.
      expect(text.stdout).toMatch(new RegExp(`\\((${bundledProviders().filter((name) => name !== 'aks').join('|')}): providers/\\1/function/\\w+\\.py:\\d+\\)`));
    }
    const missing = await runDrift(['explain', 'div:cluster:ready:aks', '-s', 'converge'], dir);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('drift diff -p aks -s converge reports no finding div:cluster:ready:aks');
  }, 300_000);
});
