/**
 * `drift new-provider`: an adapter drafted from the XR's schema. Pure: the XRD's definition in, the
 * adapter's text and what is left to fill in out. Intent the scenarios carry (pools, counts, GPUs,
 * credentials) is mapped where the schema's field names say what they are; everything else the XR
 * requires gets the schema's example, default or first enum value, and is listed as left to do.
 */
import { Document, Scalar, type Node, type YAMLMap, type YAMLSeq } from 'yaml';
import { DriftError } from '../errors.js';
import { isObject, type JsonObject } from '../util/objects.js';
import { packageFile } from './paths.js';
import type { XrdDefinition } from './xrd.js';
import { readYamlFile } from './yamlFile.js';

export interface AdapterDraft {
  text: string;
  /** What the author must still fill in, one line each, in file order. */
  todo: string[];
}

export interface DraftInput {
  name: string;
  xrd: XrdDefinition;
  /** The XRD's path relative to the adapter's folder, `/`-separated. */
  xrdPath: string;
  /** The GPU names the project's scenarios ask for (L4, H100): the `gpus` map needs an entry each. */
  gpus: readonly string[];
}

/** Intent a pool carries, as a CEL expression over one scenario pool `p`. */
const POOL_INTENT: Readonly<Record<string, string>> = {
  name: 'p.name',
  nodeCount: 'p.nodeCount',
  minNodeCount: 'p.?minNodeCount.orValue(null)',
  maxNodeCount: 'p.?maxNodeCount.orValue(null)',
  zones: 'has(p.zones) ? (type(p.zones) == list ? size(p.zones) : p.zones) : null',
};

const properties = (schema: unknown): Record<string, JsonObject> => (isObject(schema) && isObject(schema.properties) ? (schema.properties as Record<string, JsonObject>) : {});
const required = (schema: unknown): string[] => (isObject(schema) && Array.isArray(schema.required) ? schema.required.map(String) : []);

/** An example value for a schema: its example, default or first enum value, else one of its type. */
function exampleOf(schema: JsonObject): unknown {
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  switch (schema.type) {
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(required(schema).map((field) => [field, exampleOf(properties(schema)[field] ?? {})]));
    default:
      return 'TODO';
  }
}

/** `{kind, name}`: the XR's credentials reference, whatever the XRD calls it (AKS: providerConfig). */
const isCredentials = (schema: JsonObject) => ['kind', 'name'].every((field) => field in properties(schema)) && Object.keys(properties(schema)).length === 2;
/** An array of objects with a `name` and a `nodeCount`: the XR's node pools. */
const isPools = (schema: JsonObject) => schema.type === 'array' && 'name' in properties(schema.items) && 'nodeCount' in properties(schema.items);

/** A schema's description as one comment line. */
const description = (schema: JsonObject): string | undefined => (typeof schema.description === 'string' && schema.description.trim() ? ` ${schema.description.replace(/\s+/g, ' ').trim()}` : undefined);

/** A field name CEL can name as it is (`p.nodeCount`); any other goes through a quoted key (`p["node count"]`). */
const CEL_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const celField = (object: string, field: string) => (CEL_IDENTIFIER.test(field) ? `${object}.${field}` : `${object}[${JSON.stringify(field)}]`);

/** One `xr.spec` entry of the draft: its value, and how it is written. */
interface SpecEntry {
  field: string;
  value: unknown;
  comment?: string | undefined;
  /** A one-line map written in flow style (`{kind: ..., name: ...}`). */
  flow?: boolean;
  /** A long CEL expression written as a literal block (`|-`). */
  literal?: boolean;
}

/**
 * The draft is built as a YAML document, never as text: every key and value an XRD supplies is
 * quoted as YAML requires, so a field name holding `: `, a newline or a `#` stays one key. The text
 * is then parsed back and checked against the adapter schema before anyone writes it.
 */
export function draftAdapter({ name, xrd, xrdPath, gpus }: DraftInput): AdapterDraft {
  const todo: string[] = [];
  const spec: SpecEntry[] = [];
  const gpuFields = new Set<string>();
  const fields = properties(xrd.spec);
  for (const [field, schema] of Object.entries(fields)) {
    if (isCredentials(schema)) {
      spec.push({ field, value: { kind: '${credentials.?kind.orValue(null)}', name: '${credentials.?name.orValue(null)}' }, comment: " the scenario's credentials; the XRD defaults the rest", flow: true });
      continue;
    }
    if (isPools(schema)) {
      const item = schema.items as JsonObject;
      const entries: string[] = [];
      for (const [poolField, poolSchema] of Object.entries(properties(item))) {
        const key = JSON.stringify(poolField);
        const intent = POOL_INTENT[poolField];
        if (intent !== undefined) entries.push(`${key}: ${intent}`);
        else if (poolField === 'gpu' && isObject(poolSchema) && 'type' in properties(poolSchema)) {
          gpuFields.add('type');
          entries.push(`"gpu": has(p.gpu) ? dyn({"type": gpus[p.gpu].type${'count' in properties(poolSchema) ? ', "count": p.?gpuCount.orValue(1)' : ''}}) : null`);
        } else if (required(item).includes(poolField)) {
          // A machine field only the cloud knows: taken from the adapter's gpus map for GPU pools.
          gpuFields.add(poolField);
          entries.push(`${key}: has(p.gpu) ? ${celField('gpus[p.gpu]', poolField)} : ${JSON.stringify(exampleOf(poolSchema))}`);
          todo.push(`xr.spec.${field}[].${poolField}: what a pool without a GPU uses (drafted as ${JSON.stringify(exampleOf(poolSchema))})`);
        }
      }
      const value = ['${pools.map(p, {', ...entries.map((entry, index) => `  ${entry}${index < entries.length - 1 ? ',' : ''}`), '})}'].join('\n');
      spec.push({ field, value, literal: true });
      continue;
    }
    if (!required(xrd.spec).includes(field)) continue;
    const value = exampleOf(schema);
    spec.push({ field, value, comment: description(schema) });
    todo.push(`xr.spec.${field}: this cloud's value (drafted as ${JSON.stringify(value)})`);
  }
  if (gpus.length > 0 && gpuFields.size > 0) todo.push(`xr.gpus: for each GPU the scenarios ask for (${gpus.join(', ')}), this cloud's ${[...gpuFields].sort().join(', ')}`);
  todo.unshift('function.command and function.cwd: how to start the function (the bundled providers run `python -m function.main`)');
  todo.push('world.credentials: the ProviderConfig the simulated cloud holds when the scenario has credentials (apiVersion of this cloud\'s provider, its spec)');
  todo.push('world.brokenCredentials: what "credentials unusable" means on this cloud (a JSON merge patch)');
  todo.push('world.observe: the cloud facts (external names, emails, IDs) the simulated cloud sets on what the function composes');
  todo.push('values: the cloud\'s name, region and other values to template out of skeletons');
  return { text: draftText({ name, xrd, xrdPath, gpus, spec, gpuFields }), todo };
}

function draftText({ name, xrd, xrdPath, gpus, spec, gpuFields }: DraftInput & { spec: SpecEntry[]; gpuFields: Set<string> }): string {
  const doc = new Document({
    name,
    function: { command: ['../../.venv/bin/python', '-m', 'function.main', '--insecure', '--address', '{address}'], cwd: '.' },
    xrd: xrdPath,
    xr: { apiVersion: xrd.apiVersion, kind: xrd.kind, spec: {} },
    world: {
      credentials: [
        {
          apiVersion: 'TODO.m.upbound.io/v1beta1',
          kind: 'ClusterProviderConfig',
          metadata: { name: 'default' },
          spec: { credentials: { source: 'Secret', secretRef: { namespace: 'crossplane-system', name: 'TODO-credentials', key: 'credentials' } } },
        },
      ],
      brokenCredentials: { spec: { credentials: { source: 'InjectedIdentity', secretRef: null } } },
      observe: [],
    },
    values: { cloud: name.toUpperCase() },
  });
  doc.commentBefore = ` yaml-language-server: $schema=../../schemas/provider.schema.json\n Drafted by \`drift new-provider ${name}\` from ${xrdPath}. Fill in every TODO; see drift's docs/adapters.md, "Adding a provider".`;
  const node = (path: Array<string | number>) => doc.getIn(path, true) as Node;
  const flowOf = (path: Array<string | number>) => ((doc.getIn(path, true) as YAMLMap | YAMLSeq).flow = true);
  flowOf(['function', 'command']);
  node(['function', 'command']).comment = ' TODO: how to start the function';
  node(['xrd']).comment = ' validates and defaults every XR built below';
  const specMap = doc.getIn(['xr', 'spec'], true) as YAMLMap;
  for (const entry of spec) {
    const value = doc.createNode(entry.value) as Node;
    if (entry.flow) (value as YAMLMap).flow = true;
    if (entry.literal) (value as Scalar).type = Scalar.BLOCK_LITERAL;
    if (entry.comment) value.comment = entry.comment;
    specMap.add(doc.createPair(entry.field, value));
  }
  if (gpus.length > 0 && gpuFields.size > 0) {
    const table = Object.fromEntries(gpus.map((gpu) => [gpu, Object.fromEntries([...gpuFields].sort().map((field) => [field, 'TODO']))]));
    (doc.getIn(['xr'], true) as YAMLMap).set('gpus', doc.createNode(table));
    for (const gpu of gpus) flowOf(['xr', 'gpus', gpu]);
    (doc.getIn(['xr'], true) as YAMLMap).items.at(-1)!.key = Object.assign(doc.createNode('gpus') as Scalar, { comment: " TODO: this cloud's machine for each GPU the scenarios ask for" });
  }
  flowOf(['world', 'credentials', 0, 'metadata']);
  flowOf(['world', 'credentials', 0, 'spec', 'credentials']);
  flowOf(['world', 'credentials', 0, 'spec', 'credentials', 'secretRef']);
  (doc.getIn(['world'], true) as YAMLMap).items[0]!.key = Object.assign(doc.createNode('credentials') as Scalar, { comment: " TODO: the ProviderConfig of this cloud's Crossplane provider" });
  flowOf(['world', 'brokenCredentials']);
  (doc.getIn(['world'], true) as YAMLMap).items[1]!.key = Object.assign(doc.createNode('brokenCredentials') as Scalar, { commentBefore: ' TODO: unusable credentials on this cloud, e.g. a source that is not a Secret.' });
  flowOf(['world', 'observe']);
  node(['world', 'observe']).comment = ' TODO: {kind: ..., fact: external-name, set: {...}} for each fact the cloud assigns';
  flowOf(['values']);
  node(['values']).comment = ' TODO: the region and other values to template out';
  const text = doc.toString({ lineWidth: 0, flowCollectionPadding: false });
  checkDraft(text, spec.map((entry) => entry.field));
  return text;
}

/** The draft read back as drift reads adapters: the schema accepts it and xr.spec holds exactly the fields drafted. */
function checkDraft(text: string, fields: string[]): void {
  let data: { xr?: { spec?: Record<string, unknown> } };
  try {
    data = readYamlFile(DRAFT_FILE, packageFile('schemas/provider.schema.json'), { text, cache: undefined });
  } catch (error) {
    throw new DriftError(`drift drafted an adapter it cannot read back (${(error as Error).message}); please report this with the XRD. Nothing written.`);
  }
  const drafted = Object.keys(data.xr?.spec ?? {});
  if (drafted.length !== fields.length || drafted.some((field, index) => field !== fields[index])) {
    throw new DriftError(`drift drafted xr.spec fields ${JSON.stringify(drafted)} where the XRD has ${JSON.stringify(fields)}; please report this with the XRD. Nothing written.`);
  }
}

/** The name read-back errors carry: the draft is not on disk yet. */
const DRAFT_FILE = '(drafted provider.yaml)';
