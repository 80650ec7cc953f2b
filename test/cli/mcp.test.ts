/**
 * drift mcp through a real client: the SDK's own Client over stdio against the built `drift mcp`,
 * one server process for the file, on a copy of the project whose gke drops the GPU label of its
 * node pools (a seed of the mutation suite).
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { driftBin, replayingProcessEnvironment, runDrift } from '../helpers/drift.js';
import { processesIn, waitFor, within } from '../helpers/processes.js';
import { BROKEN, brokenAdapter, copyProject, hashGoldens, mutate, REPO, replaceExactly, tempProject, type ProjectCopy } from '../helpers/project.js';

const SLOW = 240_000;
const TAG = 'mcp-test';
const GPU_LABEL = '            labels["modelplane.ai/gpu"] = pool["gpu"]["type"]\n';
const SEEDED = 'div:node-pool:labels:gke';

type Answer = { isError?: boolean; structuredContent?: Record<string, unknown>; content: Array<{ type: string; text?: string }> };

describe('drift mcp', () => {
  let copy: ProjectCopy;
  let client: Client;
  let transport: StdioClientTransport;
  const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args }, undefined, { timeout: SLOW })) as Answer;
  const text = (answer: Answer) => answer.content.map((part) => part.text ?? '').join('');
  /** What the client receives: structured content and its JSON text both. */
  const bytes = (answer: Answer) => Buffer.byteLength(JSON.stringify(answer));

  beforeAll(async () => {
    copy = copyProject({ prefix: 'drift-mcp-' });
    mutate(copy.dir, 'gke', 'function/composer.py', (source) => replaceExactly(source, GPU_LABEL, ''));
    // Its renders replay from the tests' answer cache (the seeded gke is a key of its own): no call here needs a live function.
    const env = replayingProcessEnvironment({ DRIFT_TEST_TAG: TAG });
    transport = new StdioClientTransport({ command: process.execPath, args: [driftBin(), 'mcp'], cwd: copy.dir, env, stderr: 'pipe' });
    client = new Client({ name: 'drift-test', version: '0' });
    await client.connect(transport);
  }, SLOW);

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    copy?.remove();
  });

  it('lists its tools, resources and prompt', async () => {
    const tools = (await client.listTools()).tools;
    expect(tools.map((tool) => tool.name).sort()).toEqual(['diff', 'expect', 'explain', 'facets', 'list', 'render', 'rules', 'update']);
    for (const tool of tools) expect(tool.outputSchema, tool.name).toBeDefined();
    const resources = (await client.listResources()).resources.map((resource) => resource.uri);
    expect(resources).toEqual(expect.arrayContaining(['drift://contract/CONTRACT.md', 'drift://contract/contract.json', 'drift://contract/SKILL.md', 'drift://adapter/gke']));
    const adapter = await client.readResource({ uri: 'drift://adapter/gke' });
    expect((adapter.contents[0] as { text?: string }).text).toBe(readFileSync(path.join(copy.dir, 'providers/gke/provider.yaml'), 'utf8'));
    const prompt = await client.getPrompt({ name: 'add-provider', arguments: { provider: 'acme' } });
    expect(JSON.stringify(prompt.messages)).toContain('expect with provider acme');
    const list = await call('list');
    expect(list.structuredContent!.providers).toContainEqual(expect.objectContaining({ name: 'gke', goldens: true }));
    for (const name of ['rules', 'facets', 'list']) expect(bytes(await call(name)), name).toBeLessThanOrEqual(20_000);
  });

  it(
    'pages a full expect with next and loses nothing against the CLI',
    async () => {
      const lines: unknown[] = [];
      let next: string | undefined;
      let pages = 0;
      do {
        const answer = await call('expect', { provider: 'gke', ...(next ? { next } : {}) });
        expect(answer.isError, text(answer)).toBeFalsy();
        expect(bytes(answer)).toBeLessThanOrEqual(20_000);
        lines.push(...(answer.structuredContent!.items as unknown[]));
        next = answer.structuredContent!.next as string | undefined;
        pages++;
      } while (next);
      expect(pages).toBeGreaterThan(1);
      const cli = await runDrift(['expect', '-p', 'gke'], copy.dir);
      const flat = (parse(cli.stdout) as { requirements: unknown[] }).requirements;
      const key = (line: unknown) => JSON.stringify(line, Object.keys(line as object).sort());
      expect(lines.map(key).sort()).toEqual(flat.map(key).sort());
      const unmet = await call('expect', { provider: 'gke', unmet: true, scenario: 'converge' });
      const items = unmet.structuredContent!.items as Array<{ subject: string; facet: string; status: string }>;
      expect(items.length).toBeGreaterThan(0);
      expect(items.every((line) => line.status === 'not met')).toBe(true);
      expect(items).toContainEqual(expect.objectContaining({ subject: 'node-pool', facet: 'labels' }));
    },
    SLOW,
  );

  it(
    "diffs the seeded provider and explains its finding with a place in its own code and in another provider's",
    async () => {
      const answer = await call('diff', { provider: 'gke', scenario: ['converge'] });
      expect(answer.isError, text(answer)).toBeFalsy();
      expect(bytes(answer)).toBeLessThanOrEqual(20_000);
      const findings = answer.structuredContent!.items as Array<{ id: string; hint: string }>;
      expect(findings.map((finding) => finding.id)).toContain(SEEDED);
      // A later page says what the first said beside its items, and the pages hold the findings, once each.
      const first = await call('diff', { provider: 'gke', scenario: ['converge'], limit: 1 });
      const second = await call('diff', { provider: 'gke', scenario: ['converge'], limit: 1, next: first.structuredContent!.next });
      expect(second.structuredContent!.summary).toEqual(answer.structuredContent!.summary);
      expect([...(first.structuredContent!.items as typeof findings), ...(second.structuredContent!.items as typeof findings)].map((f) => f.id)).toEqual(findings.slice(0, 2).map((f) => f.id));
      const explained = await call('explain', { id: SEEDED });
      expect(explained.isError, text(explained)).toBeFalsy();
      const data = explained.structuredContent as { meta: { id: string; fix: string }; ways: Array<{ providers: string[]; place?: { provider: string; file: string; line: number; excerpt?: string } }> };
      expect(data.meta.id).toBe('labels');
      expect(data.meta.fix).toBeTruthy();
      const own = data.ways.find((way) => way.providers.includes('gke'))!;
      expect(own.place).toMatchObject({ provider: 'gke', file: 'providers/gke/function/composer.py' });
      const source = readFileSync(path.join(copy.dir, own.place!.file), 'utf8').split('\n');
      // The place writes the pool's labels (compare/where.ts), the same line the finding's where names.
      expect(source[own.place!.line - 1]).toContain('modelplane.ai/');
      expect((explained.structuredContent as { where: unknown }).where).toEqual(own.place);
      const convention = data.ways.find((way) => !way.providers.includes('gke'))!;
      expect(convention.place!.provider).not.toBe('gke');
      expect(convention.place!.excerpt).toContain('modelplane.ai/');
      const unknown = await call('explain', { id: 'div:nothing:here:labels:gke' });
      expect(unknown.isError).toBe(true);
      expect(text(unknown)).toContain('call diff');
    },
    SLOW,
  );

  it('refuses names and paths outside the project, and update of a provider with goldens, changing nothing', async () => {
    const before = hashGoldens(copy.dir);
    const bad = await call('render', { provider: '../../etc', scenario: 'converge' });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toContain('is not a provider name');
    await expect(client.readResource({ uri: 'drift://adapter/..%2F..%2Fetc%2Fpasswd' })).rejects.toThrow(/not a provider name/);
    const unknown = await call('diff', { provider: 'acme' });
    expect(text(unknown)).toContain('no provider acme');
    const update = await call('update', { provider: 'gke' });
    expect(update.isError).toBe(true);
    expect(text(update)).toContain('has goldens already');
    expect(hashGoldens(copy.dir)).toEqual(before);
  });

  it(
    'writes the goldens of a provider that has none, byte-identical to the committed ones, and the contract',
    async () => {
      const committed = hashGoldens(REPO);
      rmSync(path.join(copy.dir, 'goldens/vultr'), { recursive: true });
      // Gone, so the contract's regeneration shows: written again, as it was.
      const contract = readFileSync(path.join(copy.dir, 'providers/CONTRACT.md'), 'utf8');
      rmSync(path.join(copy.dir, 'providers/CONTRACT.md'));
      const list = await call('list');
      expect(list.structuredContent!.providers).toContainEqual(expect.objectContaining({ name: 'vultr', goldens: false }));
      const answer = await call('update', { provider: 'vultr' });
      expect(answer.isError, text(answer)).toBeFalsy();
      expect(bytes(answer)).toBeLessThanOrEqual(20_000);
      const written = hashGoldens(copy.dir);
      const vultr = (hashes: Record<string, string>) => Object.fromEntries(Object.entries(hashes).filter(([file]) => file.startsWith('vultr/')));
      expect(Object.keys(vultr(written)).length).toBeGreaterThan(0);
      expect(vultr(written)).toEqual(vultr(committed));
      expect(answer.structuredContent!.contract).toEqual(['providers/CONTRACT.md']);
      expect(readFileSync(path.join(copy.dir, 'providers/CONTRACT.md'), 'utf8')).toBe(contract);
    },
    SLOW,
  );

  it('exits when the client closes stdin, leaving no process', async () => {
    const pid = transport.pid!;
    // The transport ends stdin and sends SIGTERM only if the server is still there 2 s later.
    await within(client.close(), 1_900, 'drift mcp to exit on its own when stdin closes');
    await waitFor(() => !processesIn(copy.dir, TAG).length, 10_000, 'drift mcp and its functions to exit');
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
  });
});

describe('drift mcp on SIGTERM', () => {
  it(
    'stops the functions of a call in flight and exits, leaving no process',
    async () => {
      const tag = 'mcp-signal-test';
      const env: Record<string, string> = { DRIFT_TEST_TAG: tag, NO_COLOR: '1' };
      for (const [name, value] of Object.entries(process.env)) if (name !== 'CI' && value !== undefined && !(name in env)) env[name] = value;
      const transport = new StdioClientTransport({ command: process.execPath, args: [driftBin(), 'mcp'], cwd: REPO, env, stderr: 'pipe' });
      const client = new Client({ name: 'drift-test', version: '0' });
      await client.connect(transport);
      const pid = transport.pid!;
      const rendering = client.callTool({ name: 'render', arguments: { provider: 'gke', scenario: 'converge' } }).catch((error: unknown) => error);
      // The function's process (not the server itself) is up: the call is in flight.
      await waitFor(() => processesIn(REPO, tag).some((p) => p.pid !== pid), 30_000, 'the gke function to start');
      process.kill(pid, 'SIGTERM');
      await waitFor(() => !processesIn(REPO, tag).length, 10_000, 'drift mcp and its functions to exit');
      expect(await rendering).toBeInstanceOf(Error);
      await client.close().catch(() => undefined);
    },
    SLOW,
  );
});

describe('drift mcp past its deadline', () => {
  it(
    "answers a hanging render with an error once the deadline passes, stops its function and keeps serving",
    async () => {
      const project = tempProject({ providers: brokenAdapter('hang'), scenarios: path.join(REPO, 'scenarios/converge.yaml'), timeouts: { startMs: 120_000, callMs: 120_000 } });
      const tag = 'mcp-deadline-test';
      const env: Record<string, string> = { DRIFT_TEST_TAG: tag, NO_COLOR: '1' };
      for (const [name, value] of Object.entries(process.env)) if (name !== 'CI' && value !== undefined && !(name in env)) env[name] = value;
      const transport = new StdioClientTransport({ command: process.execPath, args: [driftBin(), 'mcp', '--deadline', '3'], cwd: project.dir, env, stderr: 'pipe' });
      const client = new Client({ name: 'drift-test', version: '0' });
      try {
        await client.connect(transport);
        const answer = (await client.callTool({ name: 'render', arguments: { provider: 'hang', scenario: 'converge' } }, undefined, { timeout: SLOW })) as Answer;
        expect(answer.isError).toBe(true);
        expect(answer.content[0]!.text).toContain('took longer than 3 s, so its functions were stopped');
        await waitFor(() => !processesIn(path.join(BROKEN, 'hang'), tag).length, 10_000, 'the hang function to be stopped');
        const list = (await client.callTool({ name: 'list', arguments: {} })) as Answer;
        expect(list.isError).toBeFalsy();
      } finally {
        await client.close().catch(() => undefined);
        project.remove();
      }
    },
    SLOW,
  );
});
