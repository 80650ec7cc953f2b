/**
 * drift mcp's protocol edges, over raw stdio (no SDK client, which never sends these): the built
 * `drift mcp` answers what is not a JSON-RPC 2.0 message as JSON-RPC 2.0 says, and refuses a line
 * over its bound with an error on stderr and exit 2 (docs/mcp.md, docs/limits.md).
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MCP_MESSAGE_BYTES } from '../../src/util/limits.js';
import { driftBin, replayingProcessEnvironment } from '../helpers/drift.js';
import { copyProject, type ProjectCopy } from '../helpers/project.js';

const SLOW = 60_000;
/** A JSON-RPC error is answered at once; one not here by then is not coming. */
const ANSWER_MS = 15_000;
const INITIALIZE = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } };

interface Session {
  send(line: string | Buffer): void;
  /** The next message on stdout, parsed; throws when none comes. */
  next(): Promise<Record<string, unknown>>;
  end(): Promise<{ code: number | null; stderr: string }>;
}

function serve(dir: string): Session {
  const child = spawn(process.execPath, [driftBin(), 'mcp'], { cwd: dir, env: replayingProcessEnvironment(), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiting: Array<() => void> = [];
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    for (const wake of waiting.splice(0)) wake();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.on('error', () => undefined); // a refused session closes its end while the test still writes
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    send: (line) => child.stdin.write(line),
    async next() {
      const deadline = Date.now() + ANSWER_MS;
      while (!stdout.includes('\n')) {
        if (Date.now() > deadline) throw new Error(`no answer within ${ANSWER_MS} ms; stderr: ${stderr}`);
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 500);
        });
      }
      const end = stdout.indexOf('\n');
      const line = stdout.slice(0, end);
      stdout = stdout.slice(end + 1);
      return JSON.parse(line) as Record<string, unknown>;
    },
    async end() {
      child.stdin.end();
      const code = await exited;
      return { code, stderr };
    },
  };
}

describe('drift mcp over raw stdio', () => {
  let copy: ProjectCopy;
  beforeAll(() => {
    copy = copyProject({ prefix: 'drift-mcp-protocol-' });
  });
  afterAll(() => copy?.remove());

  it(
    'answers a wrong version, a batch and non-JSON as JSON-RPC 2.0 errors, and still serves',
    async () => {
      const session = serve(copy.dir);
      session.send(`${JSON.stringify(INITIALIZE)}\n`);
      expect((await session.next()).id).toBe(0);
      session.send(`${JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'tools/list' })}\n`);
      expect(await session.next()).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32600 } });
      session.send(`${JSON.stringify({ id: 2, method: 'tools/list' })}\n`);
      expect(await session.next()).toMatchObject({ jsonrpc: '2.0', id: 2, error: { code: -32600 } });
      session.send(`${JSON.stringify([{ jsonrpc: '2.0', id: 3, method: 'tools/list' }, { jsonrpc: '2.0', id: 4, method: 'ping' }])}\n`);
      const batch = await session.next();
      expect(batch).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      expect(JSON.stringify(batch)).toContain('2025-06-18');
      session.send('{"jsonrpc": "2.0", "id": 5, "method": \n');
      expect(await session.next()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } });
      session.send('not json at all\r\n');
      expect(await session.next()).toMatchObject({ id: null, error: { code: -32700 } });
      // The session goes on: a good request after all of them is answered.
      session.send(`${JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'ping' })}\n`);
      expect(await session.next()).toEqual({ jsonrpc: '2.0', id: 6, result: {} });
      const { code, stderr } = await session.end();
      expect(code, stderr).toBe(0);
    },
    SLOW,
  );

  it(
    'refuses a line over its bound with an error on stderr and exit 2',
    async () => {
      const session = serve(copy.dir);
      session.send(`${JSON.stringify(INITIALIZE)}\n`);
      expect((await session.next()).id).toBe(0);
      // One message that never ends its line, just past the bound: no newline ever comes.
      session.send(Buffer.alloc(MAX_MCP_MESSAGE_BYTES + 1, 'x'));
      const { code, stderr } = await session.end();
      expect(code).toBe(2);
      expect(stderr).toContain(`passed ${MAX_MCP_MESSAGE_BYTES} bytes`);
      expect(stderr).toContain('docs/mcp.md');
    },
    SLOW,
  );

  it(
    'serves a message just under its bound',
    async () => {
      const session = serve(copy.dir);
      session.send(`${JSON.stringify(INITIALIZE)}\n`);
      expect((await session.next()).id).toBe(0);
      const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { pad: '' } } });
      const padded = ping.replace('"pad":""', `"pad":"${'y'.repeat(MAX_MCP_MESSAGE_BYTES - ping.length)}"`);
      expect(Buffer.byteLength(padded)).toBe(MAX_MCP_MESSAGE_BYTES);
      session.send(`${padded}\n`);
      expect(await session.next()).toMatchObject({ id: 1, result: {} });
      const { code, stderr } = await session.end();
      expect(code, stderr).toBe(0);
    },
    SLOW,
  );
});
