/**
 * `drift new-provider`: an adapter drafted from the XR's schema. Pure: the XRD's definition in, the
 * adapter's text and what is left to fill in out. Intent the scenarios carry (pools, counts, GPUs,
 * credentials) is mapped where the schema's field names say what they are; everything else the XR
 * requires gets the schema's example, default or first enum value, and is listed as left to do.
 */
import { isObject, type JsonObject } from '../util/objects.js';
import type { XrdDefinition } from './xrd.js';

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

const description = (schema: JsonObject) => (typeof schema.description === 'string' ? `  # ${schema.description.replace(/\s+/g, ' ')}` : '');

export function draftAdapter({ name, xrd, xrdPath, gpus }: DraftInput): AdapterDraft {
  const todo: string[] = [];
  const spec: string[] = [];
  const gpuFields = new Set<string>();
  const fields = properties(xrd.spec);
  for (const [field, schema] of Object.entries(fields)) {
    if (isCredentials(schema)) {
      spec.push(`    ${field}: {kind: "\${credentials.?kind.orValue(null)}", name: "\${credentials.?name.orValue(null)}"}  # the scenario's credentials; the XRD defaults the rest`);
      continue;
    }
    if (isPools(schema)) {
      const item = schema.items as JsonObject;
      const entries: string[] = [];
      for (const [poolField, poolSchema] of Object.entries(properties(item))) {
        const intent = POOL_INTENT[poolField];
        if (intent !== undefined) entries.push(`"${poolField}": ${intent}`);
        else if (poolField === 'gpu' && isObject(poolSchema) && 'type' in properties(poolSchema)) {
          gpuFields.add('type');
          entries.push(`"gpu": has(p.gpu) ? dyn({"type": gpus[p.gpu].type${'count' in properties(poolSchema) ? ', "count": p.?gpuCount.orValue(1)' : ''}}) : null`);
        } else if (required(item).includes(poolField)) {
          // A machine field only the cloud knows: taken from the adapter's gpus map for GPU pools.
          gpuFields.add(poolField);
          entries.push(`"${poolField}": has(p.gpu) ? gpus[p.gpu].${poolField} : ${JSON.stringify(exampleOf(poolSchema))}`);
          todo.push(`xr.spec.${field}[].${poolField}: what a pool without a GPU uses (drafted as ${JSON.stringify(exampleOf(poolSchema))})`);
        }
      }
      spec.push(`    ${field}: |-`, '      ${pools.map(p, {', ...entries.map((entry, index) => `        ${entry}${index < entries.length - 1 ? ',' : ''}`), '      })}');
      continue;
    }
    if (!required(xrd.spec).includes(field)) continue;
    const value = exampleOf(schema);
    spec.push(`    ${field}: ${JSON.stringify(value)}${description(schema)}`);
    todo.push(`xr.spec.${field}: this cloud's value (drafted as ${JSON.stringify(value)})`);
  }
  const gpuLines = gpus.map((gpu) => `    ${gpu}: {${[...gpuFields].sort().map((field) => `${field}: TODO`).join(', ')}}`);
  if (gpus.length > 0 && gpuFields.size > 0) todo.push(`xr.gpus: for each GPU the scenarios ask for (${gpus.join(', ')}), this cloud's ${[...gpuFields].sort().join(', ')}`);
  todo.unshift('function.command and function.cwd: how to start the function (the bundled providers run `python -m function.main`)');
  todo.push('world.credentials: the ProviderConfig the simulated cloud holds when the scenario has credentials (apiVersion of this cloud\'s provider, its spec)');
  todo.push('world.brokenCredentials: what "credentials unusable" means on this cloud (a JSON merge patch)');
  todo.push('world.observe: the cloud facts (external names, emails, IDs) the simulated cloud sets on what the function composes');
  todo.push('values: the cloud\'s name, region and other values to template out of skeletons');
  const lines = [
    '# yaml-language-server: $schema=../../schemas/provider.schema.json',
    `# Drafted by \`drift new-provider ${name}\` from ${xrdPath}. Fill in every TODO; see drift's docs/adapters.md, "Adding a provider".`,
    `name: ${name}`,
    'function:',
    '  command: [../../.venv/bin/python, -m, function.main, --insecure, --address, "{address}"]  # TODO: how to start the function',
    '  cwd: .',
    `xrd: ${xrdPath}   # validates and defaults every XR built below`,
    'xr:',
    `  apiVersion: ${xrd.apiVersion}`,
    `  kind: ${xrd.kind}`,
    '  spec:',
    ...spec,
    ...(gpuLines.length && gpuFields.size ? ['  gpus:  # TODO: this cloud\'s machine for each GPU the scenarios ask for', ...gpuLines] : []),
    'world:',
    '  credentials:  # TODO: the ProviderConfig of this cloud\'s Crossplane provider',
    '    - apiVersion: TODO.m.upbound.io/v1beta1',
    '      kind: ClusterProviderConfig',
    '      metadata: {name: default}',
    '      spec:',
    '        credentials: {source: Secret, secretRef: {namespace: crossplane-system, name: TODO-credentials, key: credentials}}',
    '  # TODO: unusable credentials on this cloud, e.g. a source that is not a Secret.',
    '  brokenCredentials: {spec: {credentials: {source: InjectedIdentity, secretRef: null}}}',
    '  observe: []  # TODO: {kind: ..., fact: external-name, set: {...}} for each fact the cloud assigns',
    `values: {cloud: ${JSON.stringify(name.toUpperCase())}}  # TODO: the region and other values to template out`,
    '',
  ];
  return { text: lines.join('\n'), todo };
}
