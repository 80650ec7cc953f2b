import { GrpcStatus, grpcStatusName } from './grpcStatus.js';
import type { RunFunctionRequest, RunFunctionResponse } from '@crossplane-org/function-sdk-typescript';
import { writeRequest } from './requestWriter.js';
import { UnaryChannel, UnaryError } from './unaryCall.js';
import { speedLayers, type Channel } from '../util/speedLayers.js';
import { decodeResponse, readAnswers } from './wireResponse.js';

/** A request, or one already encoded (the memo encodes each request once to key it; the call sends the same bytes). */
export type OutgoingRequest = RunFunctionRequest | Uint8Array;

/** Sends a request, encoded or not, straight to the function. */
export type Send = (request: OutgoingRequest) => Promise<RunFunctionResponse>;

/** Each answer's wire bytes, as the function sent them: what the answer cache keeps. */
const wireBytes = new WeakMap<RunFunctionResponse, Uint8Array>();

export function answerBytes(response: RunFunctionResponse): Uint8Array | undefined {
  return wireBytes.get(response);
}

const RUN_FUNCTION = '/apiextensions.fn.proto.v1.FunctionRunnerService/RunFunction';

/** A failed RunFunction call, with the gRPC status that tells "not up yet" from "broken". */
export class CallError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }

  get unavailable(): boolean {
    return this.code === GrpcStatus.UNAVAILABLE;
  }
}

/** A gRPC client for one function process (unix socket or loopback address). */
export class FunctionClient {
  private readonly channel: Channel;
  private readonly read = readAnswers();

  constructor(readonly address: string) {
    this.channel = speedLayers().channel?.(address, RUN_FUNCTION) ?? new UnaryChannel(address, RUN_FUNCTION);
  }

  async run(request: OutgoingRequest, timeoutMs: number): Promise<RunFunctionResponse> {
    let bytes: Buffer;
    try {
      bytes = await this.channel.call(request instanceof Uint8Array ? request : writeRequest(request), timeoutMs);
    } catch (error) {
      const { code, details } = error instanceof UnaryError ? error : { code: GrpcStatus.UNKNOWN, details: String(error) };
      throw new CallError(describeStatus(code, details), code);
    }
    let response: RunFunctionResponse;
    try {
      response = decodeResponse(bytes, this.read);
    } catch (error) {
      throw new CallError(describeStatus(GrpcStatus.INTERNAL, `Response message parsing error: ${(error as Error).message}`), GrpcStatus.INTERNAL);
    }
    wireBytes.set(response, bytes);
    return response;
  }

  /**
   * A call that runs out of its deadline is asked once more with twice the deadline before it counts
   * as failed: on a loaded machine (load 20 on two cores) one slow answer is not a hung function,
   * and failing it would turn one late answer into an error and spurious divergences.
   */
  async runPatiently(request: OutgoingRequest, timeoutMs: number): Promise<RunFunctionResponse> {
    try {
      return await this.run(request, timeoutMs);
    } catch (error) {
      if (!(error instanceof CallError) || error.code !== GrpcStatus.DEADLINE_EXCEEDED) throw error;
    }
    try {
      return await this.run(request, 2 * timeoutMs);
    } catch (error) {
      if (!(error instanceof CallError) || error.code !== GrpcStatus.DEADLINE_EXCEEDED) throw error;
      throw new CallError(`${error.message}: no answer within ${timeoutMs} ms (timeouts.callMs), nor within ${2 * timeoutMs} ms when asked again`, error.code);
    }
  }

  close(): void {
    this.channel.close();
  }
}

function describeStatus(code: number, details: string): string {
  const name = grpcStatusName(code);
  if (code === GrpcStatus.DEADLINE_EXCEEDED) return `the call timed out (${name}): the function hung or is too slow`;
  if (code === GrpcStatus.INTERNAL && /\bpars(e|ing)\b|deserializ/i.test(details)) return `the function answered something that is not a RunFunctionResponse (${details})`;
  return `${name}: ${details}`;
}
