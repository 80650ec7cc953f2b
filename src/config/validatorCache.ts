import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Ajv, Options, ValidateFunction } from 'ajv';
import { readEntry, writeEntry } from '../cache/entry.js';
import { type CachePolicy, cacheKindFolder } from '../cache/policy.js';
import { MemoMap } from '../util/memoMap.js';

/**
 * XRD validators compiled once and kept as ajv standalone code in drift's cache folder, by the hash
 * of the schema they were compiled from, ajv's version and its options: compiling five XRDs costs
 * more than the rest of loading the project, and ajv itself is loaded only on a miss. The schema is
 * the project's, so it cannot be compiled at build as drift's own schemas are. Where they are kept is
 * the run's cache policy, passed to each call from the edge; nothing here remembers a folder.
 */

const require = createRequire(import.meta.url);
const FORMAT = 'drift-validators/1';
let ajvVersion: string | undefined;
const compilers = new MemoMap<string, Ajv>();

function compiler(options: Options): Ajv {
  const id = JSON.stringify(options);
  let ajv = compilers.get(id);
  if (!ajv) {
    const { Ajv: AjvClass } = require('ajv') as typeof import('ajv');
    ajv = new AjvClass({ ...options, code: { source: true } });
    compilers.set(id, ajv);
  }
  return ajv;
}

/**
 * Evaluates standalone code with drift's own require, so its `require("ajv/dist/runtime/...")` resolve
 * wherever the file is. Undefined (a miss) when the entry is missing, empty, cut short or tampered
 * with: it does not run, or runs and exports no validator.
 */
function load(code: Buffer | undefined): ValidateFunction | undefined {
  if (code === undefined) return undefined;
  try {
    const module = { exports: {} as unknown };
    new Function('require', 'module', 'exports', code.toString('utf8'))(require, module, module.exports);
    const exported = module.exports as { default?: unknown };
    const validate = typeof exported === 'function' ? exported : exported.default;
    return typeof validate === 'function' ? (validate as ValidateFunction) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The validator of `schema` under `options`: from the cache of `cache` when it holds one, else compiled
 * (and kept there). Without a policy, or with caches off, compiled every time. Throws what ajv throws.
 */
export function cachedValidator(schema: object, options: Options, cache: CachePolicy | undefined): ValidateFunction {
  const folder = cacheKindFolder(cache, 'validators');
  if (folder === undefined) return compiler(options).compile(schema);
  ajvVersion ??= (JSON.parse(readFileSync(require.resolve('ajv/package.json'), 'utf8')) as { version: string }).version;
  const key = createHash('sha256').update(`${FORMAT}\n${ajvVersion}\n${JSON.stringify(options)}\n${JSON.stringify(schema)}`).digest('hex');
  const file = path.join(folder, `${key}.cjs`);
  const kept = load(readEntry(file));
  if (kept) return kept;
  const ajv = compiler(options);
  const validate = ajv.compile(schema);
  const { default: standalone } = require('ajv/dist/standalone/index.js') as { default: (ajv: Ajv, validate: ValidateFunction) => string };
  // Not kept when it cannot be written: the next load compiles it again.
  writeEntry(file, standalone(ajv, validate));
  return validate;
}
