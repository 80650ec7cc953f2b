import type { Chain } from './flow.js';
import type { FunctionFact } from './python.js';

/**
 * What each function reads of the request, by data flow across the provider rather than by names:
 * the request enters as `RunFunction`'s parameter (or any parameter annotated `RunFunctionRequest`),
 * the response as `response.to(req)` (or a parameter annotated `RunFunctionResponse`), and flows
 * through calls (arguments to parameters, a class's construction to its `__init__` or its record
 * fields), locals and attributes (`self.req = req` in `__init__`, a dataclass field). Each step
 * taken from it narrows what it is: `req.observed.resources` is the observed resources,
 * `req.observed.composite` the XR, the XR's credentials field (`spec.credentials`) and the required
 * resources the credentials, `rsp.desired` the desired state. Pure.
 */

/** What a body reads of the request, in the outline's words. */
export type RequestPart = 'observed' | 'desired' | 'credentials' | 'context' | 'xr' | 'request' | 'response';

/** What a flowing value is: a part of the request, or an instance of one of the provider's classes (`instance:Composer`). */
type Value = string;

const REQUEST_TYPE = /\bRunFunctionRequest\b/;
/**
 * The XR's fields that name its credentials, in the XR's API (not the code's names): Crossplane's
 * `providerConfigRef`, Modelplane's `credentials`, and `providerConfig` as AKSCluster calls it.
 */
const CREDENTIALS_FIELDS: ReadonlySet<string> = new Set(['credentials', 'providerConfig', 'providerConfigRef']);
const RESPONSE_TYPE = /\bRunFunctionResponse\b/;

/** A value after one step (`.observed`, `["spec"]`, `.items()`); `fields` resolves an instance's attribute. */
function stepValue(value: Value, step: string, fields: (cls: string, name: string) => ReadonlySet<Value>): Value[] {
  const name = step.replace(/^\.|\(\)$/g, '').replace(/^\[|\]$/g, '');
  if (value.startsWith('instance:')) return step.startsWith('.') && !step.endsWith('()') ? [...fields(value.slice('instance:'.length), name)] : [];
  switch (value) {
    case 'request':
      if (name === 'observed') return ['request.observed'];
      if (name === 'desired') return ['desired'];
      if (name === 'credentials' || name === 'required_resources' || name === 'extra_resources') return ['credentials'];
      if (name === 'context') return ['context'];
      return ['request'];
    case 'request.observed':
      return [name === 'composite' ? 'xr' : name === 'resources' ? 'observed' : value];
    case 'response':
      return [name === 'desired' ? 'desired' : value];
    case 'xr':
      return [name === 'spec' ? 'xr.spec' : value];
    case 'xr.spec':
      return [CREDENTIALS_FIELDS.has(name) ? 'credentials' : value];
    default:
      return [value];
  }
}

/** A value as the outline reports a read of it; undefined for an instance (its attributes are what is read). */
function partOf(value: Value): RequestPart | undefined {
  if (value.startsWith('instance:')) return undefined;
  if (value === 'request.observed') return 'request';
  if (value === 'xr.spec') return 'xr';
  return value as RequestPart;
}

/**
 * Each function's reads of the request, sorted. `fields` are the provider's classes with their
 * annotated fields in order (what a record class's construction binds).
 */
export function requestReads(functions: readonly FunctionFact[], fields: ReadonlyMap<string, readonly string[]>): Map<FunctionFact, RequestPart[]> {
  const byName = new Map<string, FunctionFact[]>();
  for (const fn of functions) byName.set(fn.name, [...(byName.get(fn.name) ?? []), fn]);
  const ownerOf = (fn: FunctionFact) => (fn.qualified.includes('.') ? fn.qualified.split('.')[0] : undefined);
  const params = new Map(functions.map((fn) => [fn, fn.params.map(() => new Set<Value>())]));
  const locals = new Map(functions.map((fn) => [fn, new Map<string, Set<Value>>()]));
  const attributes = new Map<string, Set<Value>>();
  const fieldOf = (cls: string, name: string) => attributes.get(`${cls}.${name}`) ?? new Set<Value>();
  let changed = true;
  const into = (set: Set<Value>, values: Iterable<Value>) => {
    for (const value of values) {
      if (set.has(value)) continue;
      set.add(value);
      changed = true;
    }
  };

  const resolve = (fn: FunctionFact, chain: Chain): Set<Value> => {
    let values: Value[];
    if (chain.root === 'self') values = ownerOf(fn) ? [`instance:${ownerOf(fn)!}`] : [];
    else if (chain.root === '@response') values = ['response'];
    else if (chain.root === '@credentials') values = ['credentials'];
    else if (chain.root.startsWith('@call:')) {
      const name = chain.root.slice('@call:'.length);
      // A class of the provider makes an instance; a function of it makes what it returns (not followed);
      // anything else (`dict(x)`, `list(x)`) hands its arguments on.
      values = fields.has(name) ? [`instance:${name}`] : byName.has(name) ? [] : (chain.args ?? []).flatMap((arg) => [...resolve(fn, arg)]);
    } else {
      const index = fn.params.indexOf(chain.root);
      values = [...(locals.get(fn)!.get(chain.root) ?? []), ...(index >= 0 ? params.get(fn)![index]! : [])];
    }
    for (const step of chain.path) values = values.flatMap((value) => stepValue(value, step, fieldOf));
    return new Set(values);
  };
  const union = (fn: FunctionFact, chains: readonly Chain[]) => chains.flatMap((chain) => [...resolve(fn, chain)]);

  // Where a call's arguments go: the parameters of the functions of that name, a class's `__init__`,
  // a record class's fields.
  const sinks = (callee: string): Array<{ names: readonly string[]; at: (index: number) => Set<Value> | undefined }> => {
    const out: Array<{ names: readonly string[]; at: (index: number) => Set<Value> | undefined }> = [];
    for (const target of byName.get(callee) ?? []) out.push({ names: target.params, at: (index) => params.get(target)![index] });
    if (fields.has(callee)) {
      const init = functions.find((fn) => fn.qualified === `${callee}.__init__`);
      if (init) out.push({ names: init.params, at: (index) => params.get(init)![index] });
      else {
        const names = fields.get(callee)!;
        out.push({
          names,
          at: (index) => {
            const key = `${callee}.${names[index]!}`;
            if (!attributes.has(key)) attributes.set(key, new Set());
            return attributes.get(key);
          },
        });
      }
    }
    return out;
  };

  for (const fn of functions) {
    fn.flow.types.forEach((type, index) => {
      const set = params.get(fn)![index];
      if (!set) return;
      if (REQUEST_TYPE.test(type)) set.add('request');
      else if (RESPONSE_TYPE.test(type)) set.add('response');
      for (const name of type.match(/\b[A-Za-z_]\w*\b/g) ?? []) if (fields.has(name)) set.add(`instance:${name}`);
    });
    // The servicer's method is where the request enters, annotated or not.
    if (fn.name === 'RunFunction') params.get(fn)![0]?.add('request');
  }
  while (changed) {
    changed = false;
    for (const fn of functions) {
      for (const bind of fn.flow.binds) {
        const values = union(fn, bind.from);
        const attribute = /^self\.(\w+)$/.exec(bind.target)?.[1];
        if (attribute !== undefined) {
          const owner = ownerOf(fn);
          if (!owner) continue;
          const key = `${owner}.${attribute}`;
          if (!attributes.has(key)) attributes.set(key, new Set());
          into(attributes.get(key)!, values);
        } else {
          const own = locals.get(fn)!;
          if (!own.has(bind.target)) own.set(bind.target, new Set());
          into(own.get(bind.target)!, values);
        }
      }
      for (const call of fn.calls) {
        for (const sink of sinks(call.callee)) {
          call.flows.forEach((chains, index) => {
            const set = sink.at(index);
            if (set) into(set, union(fn, chains));
          });
          for (const [name, chains] of Object.entries(call.keywordFlows)) {
            const index = sink.names.indexOf(name);
            const set = index >= 0 ? sink.at(index) : undefined;
            if (set) into(set, union(fn, chains));
          }
        }
      }
    }
  }

  const out = new Map<FunctionFact, RequestPart[]>();
  for (const fn of functions) {
    const parts = new Set<RequestPart>();
    for (const use of fn.flow.uses) {
      // Handed to one of the provider's functions: that function reads it.
      if (use.passedTo !== undefined && (byName.has(use.passedTo) || fields.has(use.passedTo))) continue;
      for (const value of resolve(fn, use.chain)) {
        const part = partOf(value);
        if (part) parts.add(part);
      }
    }
    out.set(fn, [...parts].sort());
  }
  return out;
}
