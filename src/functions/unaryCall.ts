import type http2 from 'node:http2';
import net from 'node:net';
import { GrpcStatus } from './grpcStatus.js';

/**
 * gRPC's unary call framed by drift over node:http2: one POST per call on one HTTP/2 connection,
 * the message behind gRPC's 5-byte prefix, the status from the trailers. @grpc/grpc-js does the
 * same through its channel, resolver, load balancer, retry, filter and interceptor layers, which
 * cost about as much client CPU as the rest of drift's work on a call (docs/performance.md has the
 * figures). Statuses and their details follow grpc-js's where drift reads them: UNAVAILABLE while
 * the function cannot be reached (start-up polls on it), DEADLINE_EXCEEDED when the deadline
 * passes, INTERNAL with "Response message parsing error" for an answer that does not decode.
 */
export class UnaryError extends Error {
  constructor(
    readonly code: number,
    readonly details: string,
  ) {
    super(details);
  }
}

/** What Crossplane allows a function's answer, as the grpc-js client was configured. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** HTTP statuses without a gRPC status, as gRPC's spec maps them. */
function httpStatus(code: number): number {
  if (code === 400) return GrpcStatus.INTERNAL;
  if (code === 401) return GrpcStatus.UNAUTHENTICATED;
  if (code === 403) return GrpcStatus.PERMISSION_DENIED;
  if (code === 404) return GrpcStatus.UNIMPLEMENTED;
  if (code === 429 || code === 502 || code === 503 || code === 504) return GrpcStatus.UNAVAILABLE;
  return GrpcStatus.UNKNOWN;
}

function grpcMessage(value: unknown): string {
  const text = Array.isArray(value) ? String(value[0] ?? '') : typeof value === 'string' ? value : '';
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * node:http2, loaded at the first connection: loading it costs ~20 ms of CPU under drift's V8 flags,
 * which a run whose every cell comes from the cache (no function started) would pay for nothing.
 */
const http2Module = (): typeof http2 => process.getBuiltinModule('node:http2');

export class UnaryChannel {
  private session: http2.ClientHttp2Session | undefined;
  private closed = false;

  constructor(
    private readonly address: string,
    private readonly path: string,
  ) {}

  private connect(): http2.ClientHttp2Session {
    if (this.session && !this.session.closed && !this.session.destroyed) return this.session;
    const unix = this.address.startsWith('unix:') ? this.address.slice('unix:'.length).replace(/^\/\/(?=\/)/, '') : undefined;
    const options: http2.ClientSessionOptions = {
      // Whole desired states come back: a window wide enough that a large answer needs no round trips.
      settings: { initialWindowSize: 16 * 1024 * 1024, maxHeaderListSize: 64 * 1024 },
      maxSessionMemory: 64,
    };
    const { connect } = http2Module();
    const session = unix === undefined ? connect(`http://${this.address}`, options) : connect('http://localhost', { ...options, createConnection: () => net.connect(unix) });
    session.on('error', () => {
      // Each call waiting on the session hears of it through its own stream.
    });
    session.on('close', () => {
      if (this.session === session) this.session = undefined;
    });
    session.on('connect', () => session.setLocalWindowSize(16 * 1024 * 1024));
    this.session = session;
    return session;
  }

  /** One call: the request's bytes out, the answer's bytes back, or a UnaryError with the gRPC status. */
  call(request: Uint8Array, timeoutMs: number): Promise<Buffer> {
    if (this.closed) return Promise.reject(new UnaryError(GrpcStatus.UNAVAILABLE, 'Channel has been shut down'));
    return new Promise((resolve, reject) => {
      let session: http2.ClientHttp2Session;
      try {
        session = this.connect();
      } catch (error) {
        reject(new UnaryError(GrpcStatus.UNAVAILABLE, (error as Error).message));
        return;
      }
      const stream = session.request({
        ':method': 'POST',
        ':path': this.path,
        'content-type': 'application/grpc',
        te: 'trailers',
        'grpc-timeout': `${Math.max(1, Math.ceil(timeoutMs))}m`,
      });
      let settled = false;
      const finish = (error: UnaryError | undefined, answer?: Buffer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error) reject(error);
        else resolve(answer!);
      };
      const timer = setTimeout(() => {
        finish(new UnaryError(GrpcStatus.DEADLINE_EXCEEDED, 'Deadline exceeded'));
        stream.close(http2Module().constants.NGHTTP2_CANCEL);
      }, timeoutMs);
      const chunks: Buffer[] = [];
      let received = 0;
      let httpCode = 0;
      let status: number | undefined;
      let details = '';
      const readStatus = (headers: http2.IncomingHttpHeaders) => {
        const value = headers['grpc-status'];
        if (value === undefined) return;
        status = Number(Array.isArray(value) ? value[0] : value);
        details = grpcMessage(headers['grpc-message']);
      };
      stream.on('response', (headers) => {
        httpCode = Number(headers[':status'] ?? 0);
        readStatus(headers); // a trailers-only answer carries its status here
      });
      stream.on('trailers', readStatus);
      stream.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > MAX_MESSAGE_BYTES + 5) {
          finish(new UnaryError(GrpcStatus.RESOURCE_EXHAUSTED, `Received message larger than max (${received - 5} vs. ${MAX_MESSAGE_BYTES})`));
          stream.close(http2Module().constants.NGHTTP2_CANCEL);
          return;
        }
        chunks.push(chunk);
      });
      stream.on('error', (error: Error) => finish(new UnaryError(GrpcStatus.UNAVAILABLE, error.message)));
      stream.on('close', () => {
        if (settled) return;
        if (status === undefined) {
          if (httpCode !== 0 && httpCode !== 200) finish(new UnaryError(httpStatus(httpCode), `Received HTTP status code ${httpCode}`));
          else finish(new UnaryError(httpCode === 0 ? GrpcStatus.UNAVAILABLE : GrpcStatus.INTERNAL, httpCode === 0 ? 'Connection dropped' : 'Received RST_STREAM or end of stream without a status'));
          return;
        }
        if (status !== GrpcStatus.OK) {
          finish(new UnaryError(status, details));
          return;
        }
        const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
        if (body.length < 5) {
          finish(new UnaryError(GrpcStatus.UNIMPLEMENTED, 'No message received'));
          return;
        }
        const length = body.readUInt32BE(1);
        if (body[0] !== 0) finish(new UnaryError(GrpcStatus.INTERNAL, 'Received a compressed message, and drift asks for none'));
        else if (body.length !== 5 + length) finish(new UnaryError(GrpcStatus.INTERNAL, `Response message parsing error: a message of ${length} bytes framed in ${body.length - 5}`));
        else finish(undefined, body.subarray(5));
      });
      const frame = Buffer.allocUnsafe(5 + request.length);
      frame[0] = 0;
      frame.writeUInt32BE(request.length, 1);
      frame.set(request, 5);
      stream.end(frame);
    });
  }

  close(): void {
    this.closed = true;
    this.session?.close();
    this.session?.destroy();
    this.session = undefined;
  }
}
