/**
 * drift's speed layers, each switchable off for the bench's ablation (scripts/bench-ablation.mjs,
 * docs/performance.md): one options object, set once at the edge (bin/drift.js from
 * DRIFT_SPEED_OFF, or the bench between its paired runs) and read where a layer decides. Every
 * layer is on in a normal run; off, drift takes the plain way the layer replaces, with the same
 * report.
 *
 * The codec and the client are switched off by handing drift the replacement itself (the bench
 * passes the function SDK's generated codec and an @grpc/grpc-js channel, both dev dependencies),
 * so drift's runtime imports neither.
 */

/** What a gRPC channel does for drift: one unary call's bytes out and back, or a UnaryError. */
export interface Channel {
  call(request: Uint8Array, timeoutMs: number): Promise<Buffer>;
  close(): void;
}

/** The codec the bench swaps in for drift's own reader and writer (functions/requestWriter.ts, answerReader.ts). */
export interface Codec {
  encode(request: object): Uint8Array;
  decode(bytes: Uint8Array): object;
}

export interface SpeedLayers {
  /** Another codec than drift's protobuf reader and writer; undefined: drift's own. */
  codec?: Codec;
  /** Another channel than drift's own over node:http2 (functions/unaryCall.ts); undefined: drift's own. */
  channel?: (address: string, path: string) => Channel;
  /** The module-level memo maps (util/memoMap.ts): off, every lookup misses and nothing is kept. */
  memo: boolean;
  /** The yaml library's scalar decisions kept between processes (config/scalarCache.ts). */
  scalarCache: boolean;
  /** Calls into web-tree-sitter's Emscripten exports (outline/binding.ts); off, its public API. */
  treeSitterInternals: boolean;
  /** An answer whose wire bytes hold no secret or machine path is not walked by the redactor (util/redact.ts, pipeline/providerRender.ts). */
  redactScan: boolean;
  /** `drift diff`'s judged report kept between runs (cache/verdict.ts, pipeline/diffVerdict.ts); off, every run judges. */
  verdictCache: boolean;
}

/** The layers that a name in DRIFT_SPEED_OFF switches off (the codec and the client only the bench can replace). */
export const SWITCHABLE = ['memo', 'redactScan', 'scalarCache', 'treeSitterInternals', 'verdictCache'] as const;

const ALL_ON: SpeedLayers = { memo: true, redactScan: true, scalarCache: true, treeSitterInternals: true, verdictCache: true };

let current: SpeedLayers = ALL_ON;

/** The layers in force. */
export function speedLayers(): Readonly<SpeedLayers> {
  return current;
}

/** Sets the layers (the edge, once; the bench, before each run); what is not given is on. */
export function setSpeedLayers(layers: Partial<SpeedLayers>): void {
  current = { ...ALL_ON, ...layers };
}

/** The layers a DRIFT_SPEED_OFF value (comma-separated names) leaves on; unknown names are ignored. */
export function speedLayersOff(value: string | undefined): Partial<SpeedLayers> {
  const off = new Set((value ?? '').split(',').map((name) => name.trim()));
  return Object.fromEntries(SWITCHABLE.filter((name) => off.has(name)).map((name) => [name, false]));
}
