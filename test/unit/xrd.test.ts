import { afterAll, describe, expect, it } from 'vitest';
import { loadXrd } from '../../src/config/xrd.js';
import { checkXr } from '../../src/config/xrdCheck.js';
import { InputError } from '../../src/errors.js';
import { tempDir, writeFiles } from '../helpers/project.js';

const temp = tempDir('drift-xrd-test-');
afterAll(() => temp.remove());

const XRD = `apiVersion: apiextensions.crossplane.io/v2
kind: CompositeResourceDefinition
metadata: {name: demos.example.org}
spec:
  group: example.org
  names: {kind: Demo, plural: demos}
  versions:
    - name: v1
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              required: [location]
              x-kubernetes-validations:
                - rule: "!has(self.pools) || self.pools.all(p, p.name != 'system')"
                  message: system is reserved
              properties:
                location: {type: string, minLength: 1}
                providerConfig:
                  type: object
                  default: {}
                  properties:
                    kind: {type: string, enum: [ClusterProviderConfig, ProviderConfig], default: ClusterProviderConfig}
                    name: {type: string, default: default}
                pools:
                  type: array
                  x-kubernetes-list-type: map
                  x-kubernetes-list-map-keys: [name]
                  items:
                    type: object
                    x-kubernetes-validations:
                      - rule: self.min <= self.max
                        message: min must not exceed max
                      - rule: self.name.quantityLike()
                    properties:
                      name: {type: string}
                      min: {type: integer}
                      max: {type: integer}
                      vmSize: {type: string, x-kubernetes-validations: [{rule: "self == oldSelf", message: immutable}]}
                tags: {type: object, additionalProperties: {type: string}}
                extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
`;

const named = { file: '/adapter.yaml', line: 3, col: 1 };
let counter = 0;
function xrdFile(text = XRD): string {
  counter += 1;
  return writeFiles(temp.dir, { [`${counter}/definition.yaml`]: text })[`${counter}/definition.yaml`]!;
}

function xr(spec: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: 'example.org/v1', kind: 'Demo', metadata: { name: 'demo', namespace: 'team', uid: 'u' }, spec };
}

describe('loadXrd', () => {
  it("picks the version the XR's apiVersion names", () => {
    const xrd = loadXrd(xrdFile(), 'example.org/v1', 'Demo', named);
    expect(xrd.schemaAt).toEqual(['spec', 'versions', 0, 'schema', 'openAPIV3Schema']);
    expect(xrd.locate(xrd.schemaAt)).toEqual({ line: 11, col: 11 });
  });

  it('rejects an XRD of another kind or without the version, at the adapter line', () => {
    for (const [apiVersion, kind, problem] of [
      ['example.org/v1', 'Other', /defines Demo in group example.org, but xr is Other/],
      ['other.org/v1', 'Demo', /but xr is Demo other.org\/v1/],
      ['example.org/v2', 'Demo', /has no version v2 .*\(versions: v1\)/],
    ] as const) {
      let error: unknown;
      try {
        loadXrd(xrdFile(), apiVersion, kind, named);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).file).toBe('/adapter.yaml');
      expect((error as InputError).problem).toMatch(problem);
    }
  });
});

describe('checkXr', () => {
  const xrd = loadXrd(xrdFile(), 'example.org/v1', 'Demo', named);

  it('applies defaults as the API server would, without changing its input', () => {
    const input = xr({ location: 'westeurope', pools: [{ name: 'gpu', min: 0, max: 2 }] });
    const before = structuredClone(input);
    const checked = checkXr(xrd, input);
    expect(checked.violations).toEqual([]);
    expect((checked.xr.spec as Record<string, unknown>).providerConfig).toEqual({ kind: 'ClusterProviderConfig', name: 'default' });
    expect(input).toEqual(before);
  });

  it('rejects what the structural schema rejects, with the XR path and the schema path', () => {
    const checked = checkXr(xrd, xr({ location: 'westeurope', providerConfig: { kind: 'Secret' } }));
    expect(checked.violations).toEqual([
      { instancePath: ['spec', 'providerConfig', 'kind'], schemaPath: ['properties', 'spec', 'properties', 'providerConfig', 'properties', 'kind'], problem: 'must be one of "ClusterProviderConfig", "ProviderConfig"' },
    ]);
    expect(checkXr(xrd, xr({})).violations[0]!.problem).toBe("must have required property 'location'");
  });

  it('rejects fields the XRD does not declare, unless it preserves unknown fields', () => {
    const checked = checkXr(xrd, xr({ location: 'l', region: 'r', extra: { anything: 1 }, tags: { a: 'b' } }));
    expect(checked.violations.map((v) => [v.instancePath.join('.'), v.problem])).toEqual([['spec.region', 'unknown field "region": the XRD does not declare it']]);
  });

  it('evaluates x-kubernetes-validations rules with CEL, on the node they sit on', () => {
    const checked = checkXr(xrd, xr({ location: 'l', pools: [{ name: 'a', min: 1, max: 2 }, { name: 'system', min: 3, max: 2 }] }));
    expect(checked.violations).toEqual([
      { instancePath: ['spec'], schemaPath: ['properties', 'spec', 'x-kubernetes-validations', 0], problem: 'system is reserved' },
      { instancePath: ['spec', 'pools', 1], schemaPath: ['properties', 'spec', 'properties', 'pools', 'items', 'x-kubernetes-validations', 0], problem: 'min must not exceed max' },
    ]);
  });

  it('reports rules it cannot evaluate as unchecked, never as passed', () => {
    const checked = checkXr(xrd, xr({ location: 'l', pools: [{ name: 'a', min: 1, max: 2, vmSize: 'x' }] }));
    expect(checked.violations).toEqual([]);
    expect(checked.unchecked.map((u) => [u.schemaPath.at(-3), u.rule, u.problem.slice(0, 22)])).toEqual([
      ['items', 'self.name.quantityLike()', 'found no matching over'],
      ['vmSize', 'self == oldSelf', 'a transition rule (old'],
    ]);
  });
});
