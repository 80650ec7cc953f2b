import type { Adapter, Scenario } from './types.js';
import type { CachePolicy } from '../cache/policy.js';
import { documentCache, type DocumentCache, libraryVersions } from './documentCache.js';

/**
 * The load-time intent check's verdict (intentCheck.ts) kept in the document cache: the warnings of
 * a project that passed. The check fills every adapter's template for every scenario with CEL and
 * validates each XR against its XRD, which cost more than the rest of loading; its outcome is a
 * function of what the key holds: the project's root (warnings name paths relative to it), every
 * adapter and scenario as loaded, each XRD's schema and file text (warnings name its lines), the
 * CEL and ajv versions, and drift's build (documentCache.ts). A project that fails the check is
 * never kept, so its error is found again at every load.
 */

const FORMAT = 'drift-intent-check/1';

type Adapters = ReadonlyArray<{ adapter: Adapter }>;
type Scenarios = ReadonlyArray<{ scenario: Scenario }>;

/** What the verdict depends on, as one text. */
function verdictKey(documents: DocumentCache, root: string, adapters: Adapters, scenarios: Scenarios): string {
  const inputs = {
    root,
    adapters: adapters.map(({ adapter }) => ({ ...adapter, xrd: adapter.xrd && { file: adapter.xrd.file, digest: adapter.xrd.digest, schemaAt: adapter.xrd.schemaAt } })),
    scenarios: scenarios.map(({ scenario }) => scenario),
  };
  return documents.key(JSON.stringify(inputs), `${FORMAT}\n${libraryVersions()}`);
}

/** The warnings of a check this very project passed before, kept under `cache`; undefined when it must be checked. */
export function readIntentVerdict(cache: CachePolicy | undefined, root: string, adapters: Adapters, scenarios: Scenarios): string[] | undefined {
  const documents = documentCache(cache);
  if (documents === undefined) return undefined;
  const kept = documents.read(verdictKey(documents, root, adapters, scenarios)) as { warnings?: unknown } | undefined;
  return Array.isArray(kept?.warnings) && kept.warnings.every((warning) => typeof warning === 'string') ? kept.warnings : undefined;
}

/** Keeps the verdict of a check that passed. */
export function writeIntentVerdict(cache: CachePolicy | undefined, root: string, adapters: Adapters, scenarios: Scenarios, warnings: string[]): void {
  const documents = documentCache(cache);
  documents?.write(verdictKey(documents, root, adapters, scenarios), { warnings });
}
