/** drift's gRPC unary call over node:http2: the statuses drift reads, against a server that answers each way. */
import http2 from 'node:http2';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { status as grpcJsStatus } from '@grpc/grpc-js';
import { GrpcStatus, grpcStatusName } from '../../src/functions/grpcStatus.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnaryChannel } from '../../src/functions/unaryCall.js';

const folder = mkdtempSync(path.join(tmpdir(), 'drift-unary-'));
const socket = path.join(folder, 'fn.sock');
let server: http2.Http2Server;

const frame = (bytes: Uint8Array) => {
  const framed = Buffer.alloc(5 + bytes.length);
  framed.writeUInt32BE(bytes.length, 1);
  framed.set(bytes, 5);
  return framed;
};

beforeAll(async () => {
  server = http2.createServer();
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const request = Buffer.concat(chunks).subarray(5);
      const path = headers[':path'];
      if (path === '/echo') {
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
        // Two DATA frames: the answer arrives in pieces.
        const answer = frame(Buffer.concat([request, Buffer.from(headers['grpc-timeout'] as string)]));
        stream.write(answer.subarray(0, 3));
        stream.end(answer.subarray(3));
      } else if (path === '/fail') {
        stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '2', 'grpc-message': encodeURIComponent('Exception calling application: 100% broken') }, { endStream: true });
      } else if (path === '/missing') {
        stream.respond({ ':status': 404 }, { endStream: true });
      } else if (path === '/torn') {
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
        stream.end(frame(request).subarray(0, 7));
      }
      // '/hang' never answers.
    });
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(folder, { recursive: true, force: true });
});

const failure = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as { code: number; details: string };
  }
  throw new Error('the call succeeded');
};

describe('UnaryChannel', () => {
  it('sends the request behind its prefix with the deadline, and gets the answer whole', async () => {
    const channel = new UnaryChannel(`unix:${socket}`, '/echo');
    const answers = await Promise.all([1, 2, 3].map((n) => channel.call(Buffer.from(`request ${n}`), 5000)));
    expect(answers.map(String)).toEqual(['request 15000m', 'request 25000m', 'request 35000m']);
    channel.close();
  });

  it("reports the function's status and its percent-encoded message", async () => {
    const channel = new UnaryChannel(`unix:${socket}`, '/fail');
    expect(await failure(channel.call(Buffer.from('x'), 5000))).toMatchObject({ code: GrpcStatus.UNKNOWN, details: 'Exception calling application: 100% broken' });
    channel.close();
  });

  it('maps an HTTP status without a gRPC one as gRPC does, and a torn message as a parsing error', async () => {
    const missing = new UnaryChannel(`unix:${socket}`, '/missing');
    expect(await failure(missing.call(Buffer.from('x'), 5000))).toMatchObject({ code: GrpcStatus.UNIMPLEMENTED });
    missing.close();
    const torn = new UnaryChannel(`unix:${socket}`, '/torn');
    expect((await failure(torn.call(Buffer.from('hello'), 5000))).details).toMatch(/^Response message parsing error/);
    torn.close();
  });

  it('times out as DEADLINE_EXCEEDED, and a socket nobody serves is UNAVAILABLE', async () => {
    const hang = new UnaryChannel(`unix:${socket}`, '/hang');
    expect(await failure(hang.call(Buffer.from('x'), 100))).toMatchObject({ code: GrpcStatus.DEADLINE_EXCEEDED, details: 'Deadline exceeded' });
    hang.close();
    const nobody = new UnaryChannel(`unix:${path.join(folder, 'nobody.sock')}`, '/echo');
    expect(await failure(nobody.call(Buffer.from('x'), 1000))).toMatchObject({ code: GrpcStatus.UNAVAILABLE });
    // Not up yet is not for ever: a later call connects again.
    expect(await failure(nobody.call(Buffer.from('x'), 1000))).toMatchObject({ code: GrpcStatus.UNAVAILABLE });
    nobody.close();
  });
});

describe('GrpcStatus', () => {
  it('numbers every status drift names as gRPC does (grpc-js, a devDependency, is the reference)', () => {
    for (const [name, code] of Object.entries(GrpcStatus)) expect([name, code]).toEqual([name, grpcJsStatus[name as keyof typeof grpcJsStatus]]);
    for (let code = 0; code <= 16; code++) expect(grpcStatusName(code)).toBe(grpcJsStatus[code]);
    expect(grpcStatusName(99)).toBe('99');
  });
});
