/**
 * What a run reports while it runs, as one stream of events in the order they happen: the CLI's
 * live progress lines and `--verbose` timings both read it, and neither changes what the run does.
 */
export type RunEvent =
  /** A provider's turn under the concurrency bound has come: its function is starting, for `scenarios` cells. */
  | { type: 'provider-starting'; provider: string; scenarios: number }
  /** The function answered its start-up probe after `ms` from spawn. */
  | { type: 'provider-started'; provider: string; ms: number }
  /** The function never answered: every cell of the provider carries `error`. */
  | { type: 'provider-failed'; provider: string; ms: number; error: string }
  /** One scenario simulated against the provider, in `ms` wall time and `steps` reconciles. */
  | { type: 'cell-rendered'; provider: string; scenario: string; ms: number; steps: number }
  /** One cell fully analyzed: replays, ablations, skeleton and its own findings. */
  | { type: 'cell-done'; provider: string; scenario: string }
  /**
   * The provider's source outlined while the functions render: `files` files, `definitions` definitions, parsed in `ms`, ruff in
   * `formatterMs`; `ruff` says which ruff ran; `note`, why none could (said once, not a finding).
   */
  | { type: 'source-outlined'; provider: string; files: number; definitions: number; ms: number; formatterMs: number; ruff: string; note?: string }
  /** The function is stopped; `calls` RunFunction calls reached it. */
  | { type: 'provider-stopped'; provider: string; calls: number };

export type OnEvent = (event: RunEvent) => void;
