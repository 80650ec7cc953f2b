/**
 * `drift mcp`: drift's judge as a Model Context Protocol server over stdio. stdout is the protocol
 * channel, written only by the transport (lineTransport.ts); diagnostics go to stderr. Loaded only by `drift mcp`.
 */
import path from 'node:path';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { checkName } from '../config/names.js';
import { DriftError } from '../errors.js';
import { stopAll } from '../functions/reaper.js';
import { ContractStore } from '../goldens/contractStore.js';
import { CONTRACT_FILES } from '../report/contract/contractModel.js';
import { LineTransport, type ProtocolOutput } from './lineTransport.js';
import { readProjectFile } from './projectFiles.js';
import { DEFAULT_LIMIT } from './paging.js';
import { DriftTools, type ServerSetup } from './tools.js';

const paging = {
  limit: z.number().int().min(1).max(500).optional().describe(`items per page (default ${DEFAULT_LIMIT}; a page also stops near 8.5 KB of items)`),
  next: z.string().max(100).optional().describe('the next token of the previous page, with the same other arguments'),
};
const pageOut = { total: z.number().int(), items: z.array(z.unknown()), next: z.string().optional() };
const name = z.string().max(63);
/** Where a provider's source does something: file relative to the project, line, the lines there. */
const place = z.object({ provider: z.string(), file: z.string(), line: z.number().int(), excerpt: z.string().optional() });

/** A tool answer: the data as structured content and as its JSON text, or an error saying what to do. */
async function answer(work: () => Promise<object>) {
  try {
    const data = await work();
    return { structuredContent: data as Record<string, unknown>, content: [{ type: 'text' as const, text: JSON.stringify(data) }] };
  } catch (error) {
    const message = error instanceof DriftError ? error.message : `internal error: ${error instanceof Error ? error.message : String(error)}`;
    return { isError: true, content: [{ type: 'text' as const, text: `drift: ${message}` }] };
  }
}

function buildServer(tools: DriftTools, version: string): McpServer {
  const server = new McpServer({ name: 'drift', version });
  const readOnly = { readOnlyHint: true, openWorldHint: false };
  server.registerTool(
    'list',
    { description: 'The providers (with whether each has goldens yet) and the scenarios of this project.', inputSchema: {}, outputSchema: { providers: z.array(z.object({ name: z.string(), kind: z.string(), adapter: z.string(), goldens: z.boolean() })), scenarios: z.array(z.object({ name: z.string(), description: z.string() })) }, annotations: readOnly },
    () => answer(() => tools.list()),
  );
  server.registerTool(
    'expect',
    {
      description: "What drift diff -p holds one provider to (drift expect -p): the others' conventions, accepted ways, locked conventions, contract rules and style conventions, one line per requirement with its id (the id of the finding diff raises when it is not met) and scenarios, each met / not met / accepted; renders the provider fresh.",
      inputSchema: { provider: name, subject: z.string().max(200).optional(), facet: z.string().max(63).optional(), scenario: name.optional(), unmet: z.boolean().optional().describe('only the lines not met: what diff -p fails on'), ...paging },
      outputSchema: { provider: z.string(), rendered: z.boolean(), ...pageOut },
      annotations: readOnly,
    },
    (input) => answer(() => tools.expect(input)),
  );
  server.registerTool(
    'diff',
    {
      description: "Judge one provider against the others' goldens (drift diff -p), or what changed since a ref (drift diff --changed): the findings not accepted, each with its id (for explain) and hint.",
      inputSchema: { provider: name.optional(), changed: z.union([z.boolean(), z.string().max(200)]).optional().describe('true: since main (origin/HEAD); a string: since that ref'), scenario: z.array(name).max(50).optional(), ...paging },
      outputSchema: { summary: z.record(z.string(), z.unknown()), ...pageOut },
      annotations: readOnly,
    },
    (input) => answer(() => tools.diff(input)),
  );
  server.registerTool(
    'explain',
    {
      description: "One finding of this session's diff answers: the facet's or rule's meta (what it compares, its fix), the ways providers take with who holds each, and where a provider's source follows each way.",
      inputSchema: { id: z.string().max(300) },
      outputSchema: { id: z.string(), type: z.string(), provider: z.string().optional(), subject: z.string(), facet: z.string().optional(), message: z.string(), hint: z.string(), where: place.optional(), meta: z.record(z.string(), z.unknown()).optional(), ways: z.array(z.object({ value: z.unknown(), providers: z.array(z.string()), place: place.optional() })) },
      annotations: readOnly,
    },
    (input) => answer(() => tools.explain(input)),
  );
  server.registerTool(
    'render',
    {
      description: "One provider × scenario rendered: one step's output as a YAML stream (default: the last step), paged by lines (limit: lines per page).",
      inputSchema: { provider: name, scenario: name, step: z.number().int().min(0).max(1000).optional(), ...paging },
      outputSchema: { provider: z.string(), scenario: z.string(), steps: z.number().int().optional(), step: z.number().int().optional(), converged: z.unknown().optional(), error: z.string().optional(), total: z.number().int(), yaml: z.string(), next: z.string().optional() },
      annotations: readOnly,
    },
    (input) => answer(() => tools.render(input)),
  );
  server.registerTool('rules', { description: 'The contract rules every provider must satisfy: id, class, rationale, fix.', inputSchema: { ...paging }, outputSchema: pageOut, annotations: readOnly }, (input) => answer(() => tools.rules(input)));
  server.registerTool(
    'facets',
    { description: 'The facets drift compares across providers: class, source, what each compares, an example, its fix.', inputSchema: { id: z.string().max(63).optional(), ...paging }, outputSchema: pageOut, annotations: readOnly },
    (input) => answer(() => tools.facets(input)),
  );
  server.registerTool(
    'update',
    {
      description: 'Write the goldens of a provider that has none yet (a new provider, once diff is clean) and regenerate the contract. Refused for a provider with goldens: changing reviewed goldens stays a human step.',
      inputSchema: { provider: name },
      outputSchema: { provider: z.string(), goldens: z.array(z.object({ file: z.string(), change: z.string(), why: z.string().optional() })), counters: z.record(z.string(), z.unknown()), contract: z.array(z.string()) },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (input) => answer(() => tools.update(input)),
  );

  const contractFile = (file: string, mimeType: string) => async (uri: URL) => {
    const project = await tools.project();
    return { contents: [{ uri: uri.href, mimeType, text: readProjectFile(project.config.root, path.join(ContractStore.of(project).dir, file)) }] };
  };
  server.registerResource('contract', 'drift://contract/CONTRACT.md', { description: 'The generated contract every provider implements', mimeType: 'text/markdown' }, contractFile(CONTRACT_FILES.markdown, 'text/markdown'));
  server.registerResource('contract-json', 'drift://contract/contract.json', { description: 'The contract as data', mimeType: 'application/json' }, contractFile(CONTRACT_FILES.json, 'application/json'));
  server.registerResource('skill', 'drift://contract/SKILL.md', { description: 'The add-a-provider skill', mimeType: 'text/markdown' }, contractFile(CONTRACT_FILES.skill, 'text/markdown'));
  server.registerResource(
    'adapter',
    new ResourceTemplate('drift://adapter/{provider}', {
      list: async () => {
        const project = await tools.project();
        return { resources: project.adapters.map((adapter) => ({ uri: `drift://adapter/${adapter.name}`, name: `${adapter.name} adapter`, mimeType: 'text/yaml' })) };
      },
    }),
    { description: "A provider's drift adapter (provider.yaml)", mimeType: 'text/yaml' },
    async (uri, { provider }) => {
      const wanted = checkName(decodeURIComponent(String(provider)), 'provider');
      const project = await tools.project();
      const adapter = project.adapters.find((a) => a.name === wanted);
      if (!adapter) throw new DriftError(`no provider ${wanted} in this project; list the resources for the adapters there are`);
      return { contents: [{ uri: uri.href, mimeType: 'text/yaml', text: readProjectFile(project.config.root, adapter.file) }] };
    },
  );

  server.registerPrompt(
    'add-provider',
    { description: 'The loop that adds a provider to this project, from the contract to clean goldens', argsSchema: { provider: z.string().describe('the new provider, e.g. acme') } },
    ({ provider }) => {
      checkName(provider, 'provider');
      const text = [
        `Add the provider ${provider} to this drift project.`,
        '1. Read the resource drift://contract/CONTRACT.md (the roles, the rules, the accepted differences) and drift://contract/SKILL.md.',
        `2. If the list tool does not show ${provider}, draft its adapter in a shell: drift new-provider ${provider} --xrd <definition.yaml>, then fill in what it prints; another provider's adapter (drift://adapter/NAME) shows a finished one.`,
        `3. Call expect with provider ${provider} and unmet true: what the other providers require of it. Implement the function until each line is met, the way CONTRACT.md says the code is written.`,
        `4. Call diff with provider ${provider} (one scenario while iterating). For a finding you do not understand, call explain with its id: it names the facet's fix and a place in another provider's code that does it. render shows a step's output.`,
        `5. Repeat 3-4 until diff has no finding (expect with unmet true lists the same, as targets; a provider without goldens gets a note, not a finding); then call update with provider ${provider} (goldens and contract), and diff once more: it must be clean. Accept a difference only if the cloud forces it, and leave that to a human (drift accept).`,
      ].join('\n');
      return { messages: [{ role: 'user', content: { type: 'text', text } }] };
    },
  );
  return server;
}

/**
 * Serves until the client closes stdin or a signal arrives; every function process is stopped on the
 * way out. Exits 0, or 2 when drift ended the session (a message over the bound).
 */
export async function serveMcp(setup: ServerSetup, version: string, stderr: { write(text: string): unknown }, stdout: ProtocolOutput): Promise<number> {
  const tools = new DriftTools(setup);
  await tools.project(); // a project that does not load fails now, with exit 2, not on the first call
  const server = buildServer(tools, version);
  const transport = new LineTransport(process.stdin, stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    process.stdin.once('close', () => resolve());
  });
  await server.connect(transport);
  stderr.write(`drift mcp: serving ${setup.cwd} over stdio\n`);
  await closed;
  await tools.close();
  stopAll();
  await server.close().catch(() => undefined);
  process.stdin.pause();
  if (transport.refused === undefined) return 0;
  stderr.write(`drift mcp: ${transport.refused}\n`);
  return 2;
}
