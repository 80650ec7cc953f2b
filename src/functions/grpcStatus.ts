/**
 * gRPC's status codes, as the gRPC spec numbers them (grpc/doc/statuscodes.md). A const of drift's own:
 * drift speaks HTTP/2 itself (unaryCall.ts), so a gRPC library would be carried for this table alone.
 * All seventeen, not only those drift sends, because a function may answer with any and drift names it.
 */
export const GrpcStatus = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

const NAMES = new Map<number, string>(Object.entries(GrpcStatus).map(([name, code]) => [code, name]));

/** A status code's name (DEADLINE_EXCEEDED), or the number itself for a code gRPC does not define. */
export function grpcStatusName(code: number): string {
  return NAMES.get(code) ?? String(code);
}
