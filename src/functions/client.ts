import { credentials, makeGenericClientConstructor, status as GrpcStatus, type Client, type ServiceError } from '@grpc/grpc-js';
import { FunctionRunnerServiceService, RunFunctionRequest, type RunFunctionResponse } from '@crossplane-org/function-sdk-typescript';
import { decodeResponse } from './wireResponse.js';

/** A request, or one already encoded (the memo encodes each request once to key it; gRPC reuses the bytes). */
export type OutgoingRequest = RunFunctionRequest | Uint8Array;

/** Sends a request, encoded or not, straight to the function. */
export type Send = (request: OutgoingRequest) => Promise<RunFunctionResponse>;

type RunFunctionClient = Client & {
  runFunction(
    request: OutgoingRequest,
    options: { deadline: Date },
    callback: (error: ServiceError | null, response?: RunFunctionResponse) => void,
  ): void;
};

/** Each answer's wire bytes, as the function sent them: what the answer cache keeps. */
const wireBytes = new WeakMap<RunFunctionResponse, Uint8Array>();

export function answerBytes(response: RunFunctionResponse): Uint8Array | undefined {
  return wireBytes.get(response);
}

const RunnerClient = makeGenericClientConstructor(
  {
    runFunction: {
      ...FunctionRunnerServiceService.runFunction,
      requestSerialize: (request: OutgoingRequest) =>
        request instanceof Uint8Array ? Buffer.from(request.buffer, request.byteOffset, request.byteLength) : Buffer.from(RunFunctionRequest.encode(request).finish()),
      responseDeserialize: (bytes: Buffer) => {
        const response = decodeResponse(bytes);
        wireBytes.set(response, bytes);
        return response;
      },
    },
  },
  'FunctionRunnerService',
);

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
  private readonly client: RunFunctionClient;

  constructor(readonly address: string) {
    this.client = new RunnerClient(address, credentials.createInsecure(), {
      // Functions answer with whole desired states; allow what Crossplane allows.
      'grpc.max_receive_message_length': 64 * 1024 * 1024,
      'grpc.max_send_message_length': 64 * 1024 * 1024,
      // The default 1 s reconnect backoff would dominate start-up; the socket appears within milliseconds.
      'grpc.initial_reconnect_backoff_ms': 10,
      'grpc.max_reconnect_backoff_ms': 50,
      // A call is never retried (a failed one is reported as it failed), and the retry layer
      // buffers every message: about a fifth of the client's time per call.
      'grpc.enable_retries': 0,
    }) as unknown as RunFunctionClient;
  }

  run(request: OutgoingRequest, timeoutMs: number): Promise<RunFunctionResponse> {
    return new Promise((resolve, reject) => {
      this.client.runFunction(request, { deadline: new Date(Date.now() + timeoutMs) }, (error, response) => {
        if (error) {
          const code = error.code ?? GrpcStatus.UNKNOWN;
          reject(new CallError(describeStatus(code, error.details || error.message), code));
        } else if (!response) {
          reject(new CallError('the function answered nothing', GrpcStatus.INTERNAL));
        } else {
          resolve(response);
        }
      });
    });
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
    this.client.close();
  }
}

function describeStatus(code: number, details: string): string {
  const name = GrpcStatus[code] ?? String(code);
  if (code === GrpcStatus.DEADLINE_EXCEEDED) return `the call timed out (${name}): the function hung or is too slow`;
  if (code === GrpcStatus.INTERNAL && /\bpars(e|ing)\b|deserializ/i.test(details)) return `the function answered something that is not a RunFunctionResponse (${details})`;
  return `${name}: ${details}`;
}
