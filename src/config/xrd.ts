import type { Options, ValidateFunction } from 'ajv';
import type { CachePolicy } from '../cache/policy.js';
import { cachedValidator } from './validatorCache.js';
import { InputError } from '../errors.js';
import { isObject, type JsonObject } from '../util/objects.js';
import { readDocumentText, readLocatedYamlFile, schemaDigest, type Locator } from './yamlFile.js';

/**
 * An XRD version's `openAPIV3Schema`, compiled to validate and default XRs as the API server would:
 * the structural schema with ajv (defaults applied, unknown fields rejected as kubectl's strict field
 * validation does), and the `x-kubernetes-validations` rules with drift's CEL library.
 */
export interface Xrd {
  file: string;
  /** Path of the version's openAPIV3Schema inside the XRD file, for locating schema nodes. */
  schemaAt: Array<string | number>;
  locate: Locator;
  /** Compiled at its first use. */
  readonly validate: ValidateFunction;
  schema: JsonObject;
  /** The hash of the XRD file's text: the positions in its warnings depend on the text, not only the schema. */
  digest: string;
}

/** Something the XRD rejects in an XR: where in the XR, and where in the schema. */
export interface XrdViolation {
  instancePath: Array<string | number>;
  schemaPath: Array<string | number>;
  problem: string;
}

/** A validation rule drift could not evaluate: reported, never counted as passed. */
export interface XrdUnchecked {
  schemaPath: Array<string | number>;
  rule: string;
  problem: string;
}

const KUBERNETES_KEYWORDS = [
  'x-kubernetes-validations',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-int-or-string',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
];

// One instance for every XRD: the keywords above are Kubernetes' own and carry no ajv meaning. The
// first error is all drift reports, and stopping there keeps compiling (at every load) cheap.
const XRD_OPTIONS: Options = { allErrors: false, strict: false, useDefaults: true, validateFormats: false, keywords: KUBERNETES_KEYWORDS };

type RawXrd = {
  apiVersion?: string;
  kind?: string;
  spec?: {
    group?: string;
    names?: { kind?: string };
    versions?: Array<{ name?: string; served?: boolean; referenceable?: boolean; schema?: { openAPIV3Schema?: JsonObject } }>;
  };
};

const XRD_SCHEMA = {
  type: 'object',
  required: ['kind', 'spec'],
  properties: {
    kind: { const: 'CompositeResourceDefinition' },
    spec: {
      type: 'object',
      required: ['group', 'names', 'versions'],
      properties: {
        group: { type: 'string' },
        names: { type: 'object', required: ['kind'], properties: { kind: { type: 'string' } } },
        versions: { type: 'array', minItems: 1, items: { type: 'object', required: ['name', 'schema'], properties: { name: { type: 'string' }, schema: { type: 'object' } } } },
      },
    },
  },
};

/**
 * Structural schemas prune fields they do not declare; drift rejects them instead, as kubectl's
 * default strict field validation does, so a template writing a field the function never sees fails.
 * The XR's own envelope (apiVersion, kind, metadata) is the API server's, not the XRD's.
 */
function strict(schema: unknown, root = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => strict(item));
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, strict(sub)]));
    else if (key === 'x-kubernetes-validations' || key === 'default' || key === 'enum' || key === 'example') out[key] = value;
    else out[key] = strict(value);
  }
  if (root) {
    out.properties = { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, ...(out.properties as JsonObject | undefined) };
  }
  const open = schema['x-kubernetes-preserve-unknown-fields'] === true || 'additionalProperties' in schema;
  if (isObject(out.properties) && !open) out.additionalProperties = false;
  return out;
}

/** Reads the XRD an adapter names and picks the version its XR's apiVersion asks for. */
export function loadXrd(file: string, apiVersion: string, kind: string, named: { file: string; line: number; col: number }, cache?: CachePolicy): Xrd {
  const text = readDocumentText(file);
  const { data, locate } = readLocatedYamlFile<RawXrd>(file, XRD_SCHEMA, { text, cache });
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const wrong = (problem: string) => new InputError(named.file, named.line, named.col, problem);
  if (data.spec!.group !== group || data.spec!.names!.kind !== kind) {
    throw wrong(`xrd ${file} defines ${data.spec!.names!.kind} in group ${data.spec!.group}, but xr is ${kind} ${apiVersion}; name the XRD of this XR`);
  }
  const index = data.spec!.versions!.findIndex((entry) => entry.name === version);
  const entry = data.spec!.versions![index];
  const schema = entry?.schema?.openAPIV3Schema;
  if (!entry || !isObject(schema)) {
    const known = data.spec!.versions!.map((v) => v.name).join(', ');
    throw wrong(`xrd ${file} has no version ${version} with a schema.openAPIV3Schema (versions: ${known}); use one of them in xr.apiVersion`);
  }
  // Compiled (or read from the validator cache) at its first use: a load whose intent check is
  // cached (`drift list`, an unchanged re-run) validates no XR and needs no validator.
  let validate: ValidateFunction | undefined;
  const compile = (): ValidateFunction => {
    try {
      return cachedValidator(strict(schema, true) as object, XRD_OPTIONS, cache);
    } catch (error) {
      const { line, col } = locate(['spec', 'versions', index, 'schema', 'openAPIV3Schema']);
      throw new InputError(file, line, col, `openAPIV3Schema does not compile: ${(error as Error).message}`);
    }
  };
  return {
    file,
    schemaAt: ['spec', 'versions', index, 'schema', 'openAPIV3Schema'],
    locate,
    get validate() {
      return (validate ??= compile());
    },
    schema,
    digest: schemaDigest(text),
  };
}

/** What `drift new-provider` drafts an adapter from: the XR's apiVersion and kind, and its spec schema. */
export interface XrdDefinition {
  apiVersion: string;
  kind: string;
  /** The version's `openAPIV3Schema.properties.spec`. */
  spec: JsonObject;
}

/**
 * Reads an XRD for drafting: the referenceable version (else the first served one, else the first).
 * Anything drift cannot read is refused with its file:line (as the user named it: `shown`) and what to do.
 */
export function readXrdDefinition(file: string, shown = file): XrdDefinition {
  let text: string;
  try {
    text = readDocumentText(file, shown);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(shown, 1, 1, `cannot read the XRD (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); name a CompositeResourceDefinition file`);
  }
  const { data, locate } = readLocatedYamlFile<RawXrd>(shown, XRD_SCHEMA, { text, cache: undefined });
  const versions = data.spec!.versions!;
  const referenceable = versions.findIndex((version) => version.referenceable === true);
  const served = versions.findIndex((version) => version.served === true);
  const index = referenceable >= 0 ? referenceable : Math.max(0, served);
  const version = versions[index]!;
  const spec = version.schema?.openAPIV3Schema?.properties;
  if (!isObject(spec) || !isObject(spec.spec)) {
    const { line, col } = locate(['spec', 'versions', index, 'schema']);
    throw new InputError(shown, line, col, `version ${version.name ?? index} has no openAPIV3Schema with a spec object; give it one (properties.spec) so drift knows the XR's fields`);
  }
  return { apiVersion: `${data.spec!.group}/${version.name}`, kind: data.spec!.names!.kind!, spec: spec.spec };
}
