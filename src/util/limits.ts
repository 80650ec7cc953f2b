/**
 * Every bound drift puts on its inputs, in one place (docs/limits.md lists them for users). Each is
 * far above what a real project needs and far below what would exhaust memory, the stack or the
 * clock: an input past one is refused with its file:line and the limit, never half-read.
 */

/** One YAML or JSON document drift reads (drift.config.yaml, adapters, scenarios, XRDs, accepted.yaml, conventions.yaml). */
export const MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;

/**
 * Collections nested in one document. A Kubernetes schema nests two levels per field (`properties`,
 * then the field's schema); the deepest real XRDs stay under 60. Composing deeper documents is
 * recursive, and 5,000 levels overflow the stack.
 */
export const MAX_DOCUMENT_DEPTH = 128;

/** Alias expansions per document: a "billion laughs" bomb expands without bound. */
export const MAX_ALIASES = 100;

/** One Python (or other outlined) source file. */
export const MAX_SOURCE_BYTES = 2 * 1024 * 1024;

/** Syntax nodes nested in one source file (the outline walks the tree recursively). */
export const MAX_SOURCE_DEPTH = 500;

/** `range(n)` in a CEL template: a template counts zones, not millions. */
export const MAX_CEL_RANGE = 1000;

/** Elements all `range()` calls of one evaluation may create together (nested macros multiply them). */
export const MAX_CEL_RANGE_TOTAL = 10_000;

/** Values (list elements, map entries, scalars) in the result of one CEL evaluation. */
export const MAX_CEL_RESULT_VALUES = 100_000;

/** Characters of all strings in the result of one CEL evaluation. */
export const MAX_CEL_RESULT_CHARS = 1024 * 1024;

/** Wall-clock budget of one CEL evaluation, checked each time a template counts with range(). */
export const CEL_BUDGET_MS = 1000;

/** Human-readable bytes for messages: 4 MiB, 512 KiB. */
export function bytes(count: number): string {
  if (count >= 1024 * 1024 && count % (1024 * 1024) === 0) return `${count / (1024 * 1024)} MiB`;
  if (count >= 1024 && count % 1024 === 0) return `${count / 1024} KiB`;
  return `${count} bytes`;
}

/**
 * One message (one line) a client sends `drift mcp` on stdin. drift's tool arguments are a few
 * hundred bytes; the bound keeps a client that never sends a newline from growing drift's memory.
 */
export const MAX_MCP_MESSAGE_BYTES = 1024 * 1024;
