/**
 * The stdio transport of `drift mcp`, in place of the SDK's StdioServerTransport, which drops what
 * it cannot parse without an answer. Messages are one JSON-RPC 2.0 object a line, as MCP's stdio
 * transport says; this one answers what is not one as JSON-RPC 2.0 requires: -32700 (id null) for a
 * line that is not JSON, -32600 for a wrong or missing `"jsonrpc": "2.0"`, for anything else that is
 * no JSON-RPC message, and for a batch (MCP removed batches in its protocol revision 2025-06-18). A
 * line longer than MAX_MCP_MESSAGE_BYTES ends the session: `refused` says why, and the server exits 2.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MAX_MCP_MESSAGE_BYTES } from '../util/limits.js';

/** Where answers go: the process's stdout, which `drift mcp` is given from the edge (a full pipe says so by returning false). */
export interface ProtocolOutput {
  write(text: string): unknown;
  once?(event: 'drain', listener: () => void): unknown;
}

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const NEWLINE = 0x0a;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Why the session ended on drift's side (a line over the bound), if it did. */
  refused: string | undefined;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private closed = false;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: ProtocolOutput,
    private readonly maxBytes = MAX_MCP_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.write(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.input.pause();
    this.pending = [];
    this.onclose?.();
  }

  private readonly onInputError = (error: Error) => this.onerror?.(error);

  private readonly onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE); end !== -1 && !this.closed; end = bytes.indexOf(NEWLINE, start)) {
      if (!this.keep(bytes.subarray(start, end))) return;
      const line = Buffer.concat(this.pending).toString('utf8').replace(/\r$/, '');
      this.pending = [];
      this.pendingBytes = 0;
      start = end + 1;
      this.receive(line);
    }
    if (!this.closed) this.keep(bytes.subarray(start));
  };

  /** Adds part of the current line; false (and the session ends) once the line passes the bound. */
  private keep(part: Buffer): boolean {
    this.pendingBytes += part.length;
    if (this.pendingBytes > this.maxBytes) {
      this.refused = `a message on stdin passed ${this.maxBytes} bytes without ending its line, more than drift mcp reads in one message (docs/mcp.md); the session ends`;
      void this.close();
      return false;
    }
    if (part.length > 0) this.pending.push(part);
    return true;
  }

  private receive(line: string): void {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return this.answerError(null, PARSE_ERROR, 'Parse error: the line is not JSON');
    }
    if (Array.isArray(value)) return this.answerError(null, INVALID_REQUEST, 'Invalid Request: batches are not part of MCP since protocol revision 2025-06-18; send one message a line');
    const id = idOf(value);
    if (typeof value !== 'object' || value === null || (value as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
      return this.answerError(id, INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"');
    }
    const message = JSONRPCMessageSchema.safeParse(value);
    if (!message.success) return this.answerError(id, INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 request, notification or response');
    this.onmessage?.(message.data);
  }

  private answerError(id: string | number | null, code: number, message: string): void {
    void this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }

  private write(message: object): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`) !== false || !this.output.once) resolve();
      else this.output.once('drain', () => resolve());
    });
  }
}

/** The id of what may be a request, if it has a valid one: the answer to an invalid request carries it, else null. */
function idOf(value: unknown): string | number | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
}
