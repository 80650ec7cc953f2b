/**
 * What each function reads of the request, found by data flow in the outline (src/outline/requestFlow.ts):
 * the same reads whatever the names and the idiom the request is read through. The real grammar, no processes.
 */
import { describe, expect, it } from 'vitest';
import { parserFor } from '../../src/outline/grammar.js';
import { buildOutline } from '../../src/outline/outline.js';
import type { Outline } from '../../src/outline/types.js';

const outlineOf = async (files: Record<string, string>) =>
  (await buildOutline('p', Object.entries(files).map(([path, text]) => ({ path, text })), await parserFor('.py'))).outline;

/** Every def's reads, by qualified name (those reading nothing left out). */
function reads(outline: Outline): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const module of Object.values(outline.files)) {
    for (const [name, fn] of Object.entries(module.functions)) if (fn.request) out[name] = fn.request;
    for (const [cls, body] of Object.entries(module.classes)) for (const [name, fn] of Object.entries(body.methods)) if (fn.request) out[`${cls}.${name}`] = fn.request;
  }
  return out;
}

const SERVICER = (call: string) => `from crossplane.function import response

from function import composer


class Runner:
    async def RunFunction(self, req, _context):
        rsp = response.to(req)
        ${call}
        return rsp
`;

describe('the request, by data flow', () => {
  it('follows self.req set in __init__: a helper reading self.req.observed.resources reads the observed resources', async () => {
    const outline = await outlineOf({
      'function/fn.py': SERVICER('composer.Composer(req, rsp).compose()'),
      'function/composer.py': `from crossplane.function import resource


class Composer:
    def __init__(self, req, rsp):
        self.req = req
        self.rsp = rsp

    def compose(self):
        if self.ready("cluster"):
            self.write("nodepool-system", {})

    def ready(self, key):
        return resource.get_condition(self.req.observed.resources.get(key), "Ready").status == "True"

    def write(self, key, body):
        resource.update(self.rsp.desired.resources[key], body)

    def region(self):
        return resource.struct_to_dict(self.req.observed.composite.resource)["spec"]["region"]
`,
    });
    // Binding the request to state reads it too; the helpers read what they take from it.
    expect(reads(outline)).toEqual({ 'Composer.__init__': ['request', 'response'], 'Composer.ready': ['observed'], 'Composer.write': ['desired'], 'Composer.region': ['xr'], 'Runner.RunFunction': ['request', 'response'] });
  });

  it('follows parameters by position and keyword, whatever they are called, and the XR’s spec.credentials', async () => {
    const outline = await outlineOf({
      'function/fn.py': SERVICER('composer.compose(req, rsp)'),
      'function/composer.py': `from crossplane.function import resource, response


def compose(request, out):
    xr = resource.struct_to_dict(request.observed.composite.resource)
    seen = request.observed.resources
    pools(out, state=seen, who=xr["spec"]["credentials"])


def pools(out, state, who):
    if "cluster" in state:
        ref = {"name": who["name"]}
        out.desired.resources["nodepool-system"].ready = True
    else:
        response.normal(out, "Waiting for the cluster")


def body(name):
    return {"name": name}
`,
    });
    expect(reads(outline)).toEqual({ compose: ['observed', 'xr'], pools: ['credentials', 'desired', 'observed', 'response'], 'Runner.RunFunction': ['request', 'response'] });
  });

  it('follows dataclass-shaped state: fields bound at construction, read through an annotated parameter', async () => {
    const outline = await outlineOf({
      'function/fn.py': SERVICER('composer.compose(composer.State(observed=req.observed.resources, rsp=rsp))'),
      'function/composer.py': `from dataclasses import dataclass
from typing import Any


@dataclass
class State:
    observed: Any
    rsp: Any


def compose(state: State):
    mark(state, "cluster")


def mark(state: State, key):
    if key in state.observed:
        state.rsp.desired.resources[key].ready = True
`,
    });
    expect(reads(outline)).toEqual({ mark: ['desired', 'observed'], 'Runner.RunFunction': ['request', 'response'] });
  });

  it('reads nothing of the request through a local that only shares its name', async () => {
    const outline = await outlineOf({
      'function/composer.py': `def compose(pools):
    observed = {}
    desired = {"x": pools}
    return observed, desired
`,
    });
    expect(reads(outline)).toEqual({});
  });
});
