import { credentials, makeGenericClientConstructor, status as GrpcStatus, type Client, type ServiceError } from '@grpc/grpc-js';
import { FunctionRunnerServiceService, type RunFunctionRequest, type RunFunctionResponse } from '@crossplane-org/function-sdk-typescript';

type RunFunctionClient = Client & {
  runFunction(
    request: RunFunctionRequest,
    options: { deadline: Date },
    callback: (error: ServiceError | null, response?: RunFunctionResponse) => void,
  ): void;
};

const RunnerClient = makeGenericClientConstructor(FunctionRunnerServiceService, 'FunctionRunnerService');

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
    }) as unknown as RunFunctionClient;
  }

  run(request: RunFunctionRequest, timeoutMs: number): Promise<RunFunctionResponse> {
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
