import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ajv, ErrorObject, Options, ValidateFunction } from 'ajv';
import type { CST, Document, LineCounter, Node } from 'yaml';
import { InputError } from '../errors.js';
import { bytes, MAX_ALIASES, MAX_DOCUMENT_BYTES, MAX_DOCUMENT_DEPTH } from '../util/limits.js';
import type { CachePolicy } from '../cache/policy.js';
import { documentCache } from './documentCache.js';
import { cachedValidator } from './validatorCache.js';
import { yamlLibrary } from '../util/yamlLibrary.js';
import { MemoMap } from '../util/memoMap.js';

/** How drift's own schemas are compiled, at build (scripts/compile-schemas.mjs) and at run time alike. */
export const SCHEMA_OPTIONS: Options = { allErrors: false, strict: true };
const validators = new MemoMap<string, ValidateFunction>();
const schemaDigests = new MemoMap<string, string>();
const require = createRequire(import.meta.url);
let ajv: Ajv | undefined;
/** The yaml library, loaded at the first document the cache cannot answer: a warm `drift list` never loads it. */
const yaml = yamlLibrary;

/** ajv, loaded only when a schema must be compiled here: a built drift with a warm cache never loads it. */
function compiler(): Ajv {
  ajv ??= new (require('ajv') as typeof import('ajv')).Ajv(SCHEMA_OPTIONS);
  return ajv;
}

/** A schema is a file of schemas/ or, for files drift only reads (an XRD), a schema object. */
export type SchemaSource = string | object;

/** The identity of a schema's text: a validator compiled at build is used only for the text it was compiled from. */
export function schemaDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Where the build puts the validator compiled from `schemas/<name>.schema.json`: dist/schemas/<name>.schema.cjs. */
export function compiledSchemaFile(schemaFile: string, distFolder: string): string {
  return path.join(distFolder, 'schemas', `${path.basename(schemaFile, '.json')}.cjs`);
}

/**
 * A schema file's validator: the one the build compiled (ajv standalone code in dist/schemas/), as
 * long as it was compiled from this very text; else compiled now. Compiling drift's own schemas at
 * every start cost about as much as the rest of loading the configuration.
 */
function fileValidator(schemaFile: string): ValidateFunction {
  const text = readFileSync(schemaFile, 'utf8');
  try {
    const compiled = require(compiledSchemaFile(schemaFile, path.dirname(path.dirname(fileURLToPath(import.meta.url))))) as { validate: ValidateFunction; digest: string };
    if (compiled.digest === schemaDigest(text)) return compiled.validate;
  } catch {
    // not built (tests compile with tsc alone): compile it here
  }
  return compiler().compile(JSON.parse(text) as object);
}

function validatorFor(schema: SchemaSource, cache: CachePolicy | undefined): ValidateFunction {
  const id = typeof schema === 'string' ? schema : JSON.stringify(schema);
  let validate = validators.get(id);
  if (!validate) {
    validate = typeof schema === 'string' ? fileValidator(schema) : cachedValidator(schema, SCHEMA_OPTIONS, cache);
    validators.set(id, validate);
  }
  return validate;
}

/** Where a node of a parsed file starts: 1-based line and column. */
export interface Position {
  line: number;
  col: number;
}

/**
 * Finds the line and column of the value at `path` (keys and sequence indexes, as in
 * `['then', 0, 'role']`); a path that is not there resolves to its deepest existing ancestor.
 */
export type Locator = (path: ReadonlyArray<string | number>) => Position;

/** A parsed, validated file: its data and a way to point at any of its nodes. */
export interface LocatedYaml<T> {
  data: T;
  locate: Locator;
}

/** How a YAML file is read: its text when the caller has read (and bounded) it, and the run's cache policy. */
export interface YamlRead {
  text?: string | undefined;
  /** The run's cache policy (cache/policy.ts), from the edge; undefined: parsed and validated every time. */
  cache: CachePolicy | undefined;
}

/**
 * Reads a YAML file and checks it against a JSON Schema. Every problem becomes an InputError that
 * names the file, line and column, so a user can fix it without guessing.
 */
export function readYamlFile<T>(file: string, schemaPath: SchemaSource, read: YamlRead): T {
  return readLocatedYamlFile<T>(file, schemaPath, read).data;
}

/**
 * readYamlFile, also returning a locator so callers' own checks can name the offending line. Read
 * here, the file's size is checked first; a caller passing `text` has bounded it itself.
 */
export function readLocatedYamlFile<T>(file: string, schemaPath: SchemaSource, { text = readDocumentText(file), cache }: YamlRead): LocatedYaml<T> {
  // A text that parsed and passed this schema before (documentCache.ts): its data, and a locator that parses only when asked.
  const documents = documentCache(cache);
  const key = documents?.key(text, schemaIdentity(schemaPath));
  const kept = key === undefined ? undefined : documents!.read(key);
  if (kept !== undefined) {
    let parsed: Locator | undefined;
    return { data: kept as T, locate: (path) => (parsed ??= parseLocated<T>(file, schemaPath, text, cache).locate)(path) };
  }
  const located = parseLocated<T>(file, schemaPath, text, cache);
  if (key !== undefined) documents!.write(key, located.data);
  return located;
}

/** What identifies a schema's text in a document's key: its file's text, or the object itself. */
function schemaIdentity(schema: SchemaSource): string {
  if (typeof schema !== 'string') return schemaDigest(JSON.stringify(schema));
  let digest = schemaDigests.get(schema);
  if (digest === undefined) {
    digest = schemaDigest(readFileSync(schema, 'utf8'));
    schemaDigests.set(schema, digest);
  }
  return digest;
}

function parseLocated<T>(file: string, schemaPath: SchemaSource, text: string, cache: CachePolicy | undefined): LocatedYaml<T> {
  const lineCounter = new (yaml().LineCounter)();
  const at = (offset: number) => lineCounter.linePos(offset);
  const doc = composeBounded(file, text, lineCounter);
  const firstError = doc.errors[0];
  if (firstError) {
    const { line, col } = at(firstError.pos[0]);
    throw new InputError(file, line, col, `not valid YAML: ${firstError.message.split('\n')[0]}`);
  }
  const value: unknown = toData(doc, file, at);
  const validate = validatorFor(schemaPath, cache);
  if (!validate(value)) {
    const error = mostSpecific(validate.errors ?? []);
    const offset = offsetOf(doc, error);
    const { line, col } = at(offset);
    throw new InputError(file, line, col, describe(error));
  }
  const locate: Locator = (path) => {
    for (let depth = path.length; depth >= 0; depth -= 1) {
      const node = doc.getIn(path.slice(0, depth), true) as Node | undefined;
      if (node?.range) return at(node.range[0]);
    }
    return at(doc.contents?.range?.[0] ?? 0);
  };
  return { data: value as T, locate };
}

/** A document's text, its size checked before it is read: a 23 MB file is refused, not parsed for minutes. */
export function readDocumentText(file: string, shown = file): string {
  const size = statSync(file).size;
  if (size > MAX_DOCUMENT_BYTES) throw tooLarge(shown, size);
  return readFileSync(file, 'utf8');
}

function tooLarge(file: string, size: number): InputError {
  return new InputError(file, 1, 1, `has ${size} bytes, more than the ${bytes(MAX_DOCUMENT_BYTES)} drift reads in one document (docs/limits.md); split it or shrink it`);
}

/**
 * Parses like yaml's parseDocument, but checks the nesting first: the concrete syntax tree is built
 * without recursion, composing it is recursive, and thousands of levels overflow the stack (a
 * RangeError that yaml would report as "not valid YAML"). The depth is walked with a stack of its own.
 */
function composeBounded(file: string, text: string, lineCounter: LineCounter): Document {
  const { Composer, Parser } = yaml();
  const tokens = [...new Parser(lineCounter.addNewLine).parse(text)];
  const deep = deepestOffset(tokens);
  if (deep !== undefined) {
    const { line, col } = lineCounter.linePos(deep);
    throw new InputError(file, line, col, `nested deeper than ${MAX_DOCUMENT_DEPTH} levels (docs/limits.md); flatten the document`);
  }
  const composer = new Composer({ prettyErrors: false, uniqueKeys: true });
  let doc: Document | undefined;
  for (const next of composer.compose(tokens, true, text.length)) {
    if (!doc) doc = next as Document;
    else {
      throw new InputError(file, lineCounter.linePos(next.range[0]).line, 1, 'holds more than one YAML document (a second "---"); drift reads one document per file');
    }
  }
  return doc!;
}

/** The offset of the first collection nested deeper than MAX_DOCUMENT_DEPTH, if any. */
function deepestOffset(tokens: readonly CST.Token[]): number | undefined {
  const stack: Array<{ token: CST.Token | undefined; depth: number }> = tokens.map((token) => ({ token, depth: 0 }));
  while (stack.length > 0) {
    const { token, depth } = stack.pop()!;
    if (!token) continue;
    if (token.type === 'document') {
      stack.push({ token: token.value, depth });
    } else if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      if (depth >= MAX_DOCUMENT_DEPTH) return token.offset;
      for (const item of token.items) {
        stack.push({ token: item.key ?? undefined, depth: depth + 1 });
        stack.push({ token: item.value, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

function toData(doc: Document, file: string, at: (offset: number) => { line: number; col: number }): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIASES }) ?? {};
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
    let offset = 0;
    const { visit } = yaml();
    visit(doc, {
      Alias(_key, node) {
        offset = node.range?.[0] ?? 0;
        return visit.BREAK;
      },
    });
    const { line, col } = at(offset);
    throw new InputError(file, line, col, `its aliases expand too far (more than ${MAX_ALIASES} times: a YAML alias bomb?); write the values out instead of referring to them with *aliases`);
  }
}

/** ajv reports a oneOf failure together with each branch's; the deepest path is the useful one. */
function mostSpecific(errors: ErrorObject[]): ErrorObject {
  const sorted = [...errors].sort((a, b) => b.instancePath.length - a.instancePath.length);
  return sorted[0] ?? ({ instancePath: '', message: 'is invalid', keyword: 'unknown', params: {}, schemaPath: '' } as ErrorObject);
}

function pathOf(error: ErrorObject): string[] {
  return error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function offsetOf(doc: Document, error: ErrorObject): number {
  const path = pathOf(error);
  const node = doc.getIn(path, true) as Node | undefined;
  const extra = (error.params as { additionalProperty?: string }).additionalProperty;
  const { isMap, isPair, isScalar } = yaml();
  if (extra !== undefined && isMap(node)) {
    const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && item.key.value === extra);
    const keyNode = pair?.key as Node | undefined;
    if (keyNode?.range) return keyNode.range[0];
  }
  if (node?.range) return node.range[0];
  return doc.contents?.range?.[0] ?? 0;
}

function describe(error: ErrorObject): string {
  const where = error.instancePath ? `"${pathOf(error).join('.')}"` : 'the document';
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `unknown key "${String(params.additionalProperty)}" in ${where}; remove it or check its spelling`;
    case 'required':
      return `${where} is missing the required key "${String(params.missingProperty)}"`;
    case 'enum':
      return `${where} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'type':
      return `${where} must be ${String(params.type)}`;
    case 'pattern':
      return `${where} must match ${String(params.pattern)} (lowercase letters, digits and dashes)`;
    default:
      return `${where} ${error.message ?? 'is invalid'}`;
  }
}
