/** An adapter drafted from an XRD's spec schema: intent mapped by field name, the rest from the schema, and what is left listed. */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { draftAdapter } from '../../src/config/adapterDraft.js';
import { readYamlFile } from '../../src/config/yamlFile.js';
import { packageFile } from '../../src/config/paths.js';

const SPEC = {
  type: 'object',
  required: ['location', 'tier', 'size'],
  properties: {
    location: { type: 'string', description: 'Azure region.', example: 'westeurope' },
    tier: { type: 'string', enum: ['Free', 'Standard'] },
    size: { type: 'integer', minimum: 3 },
    optional: { type: 'string' },
    providerConfig: { type: 'object', properties: { kind: { type: 'string' }, name: { type: 'string' } } },
    nodePools: {
      type: 'array',
      items: { type: 'object', required: ['name', 'vmSize', 'nodeCount'], properties: { name: { type: 'string' }, vmSize: { type: 'string' }, nodeCount: { type: 'integer' }, maxNodeCount: { type: 'integer' }, gpu: { type: 'object', properties: { type: { type: 'string' } } } } },
    },
  },
};

const draft = draftAdapter({ name: 'acme', xrd: { apiVersion: 'example.org/v1', kind: 'AcmeCluster', spec: SPEC }, xrdPath: 'apis/definition.yaml', gpus: ['H100', 'L4'] });
const adapter = parse(draft.text) as { xr: { spec: Record<string, string>; gpus: Record<string, Record<string, string>> } };

describe('draftAdapter', () => {
  it("is an adapter the schema accepts, named after the XRD's kind and version", () => {
    expect(() => readYamlFile('providers/acme/provider.yaml', packageFile('schemas/provider.schema.json'), { text: draft.text, cache: undefined })).not.toThrow();
    expect(adapter.xr).toMatchObject({ apiVersion: 'example.org/v1', kind: 'AcmeCluster' });
  });

  it("fills required fields from the schema's example, enum or type, and leaves optional ones out", () => {
    expect(adapter.xr.spec).toMatchObject({ location: 'westeurope', tier: 'Free', size: 3 });
    expect(adapter.xr.spec).not.toHaveProperty('optional');
    expect(draft.todo.filter((line) => line.startsWith('xr.spec.'))).toEqual(['xr.spec.location: this cloud\'s value (drafted as "westeurope")', 'xr.spec.tier: this cloud\'s value (drafted as "Free")', "xr.spec.size: this cloud's value (drafted as 3)", 'xr.spec.nodePools[].vmSize: what a pool without a GPU uses (drafted as "TODO")']);
  });

  it('maps the credentials whatever the XRD calls them, and the pools by their field names', () => {
    expect(adapter.xr.spec.providerConfig).toEqual({ kind: '${credentials.?kind.orValue(null)}', name: '${credentials.?name.orValue(null)}' });
    const pools = adapter.xr.spec.nodePools!;
    for (const part of ['"name": p.name', '"nodeCount": p.nodeCount', '"maxNodeCount": p.?maxNodeCount.orValue(null)', '"vmSize": has(p.gpu) ? gpus[p.gpu].vmSize : "TODO"', '"gpu": has(p.gpu) ? dyn({"type": gpus[p.gpu].type}) : null']) expect(pools).toContain(part);
    expect(adapter.xr.gpus).toEqual({ H100: { type: 'TODO', vmSize: 'TODO' }, L4: { type: 'TODO', vmSize: 'TODO' } });
  });
});
