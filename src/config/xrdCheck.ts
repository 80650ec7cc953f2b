import type { ErrorObject } from 'ajv';
import { celProblem, evaluateCel, toCel } from '../util/cel.js';
import { isObject, type JsonObject } from '../util/objects.js';
import type { Xrd, XrdUnchecked, XrdViolation } from './xrd.js';

// Validating an XR (ajv and CEL) lives apart from reading its XRD, so loading a project whose
// intent check is cached loads no CEL.

function pointer(text: string): Array<string | number> {
  return text
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') return `unknown field "${String(params.additionalProperty)}": the XRD does not declare it`;
  if (error.keyword === 'enum') return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  return error.message ?? 'is invalid';
}

/**
 * Validates and defaults an XR against the XRD, returning the defaulted copy. Every ajv error and
 * every failed rule is a violation; a rule drift cannot evaluate (an unknown function, `oldSelf`
 * on a create) is unchecked.
 */
export function checkXr(xrd: Xrd, xr: JsonObject): { xr: JsonObject; violations: XrdViolation[]; unchecked: XrdUnchecked[] } {
  const defaulted = structuredClone(xr);
  const violations: XrdViolation[] = [];
  if (!xrd.validate(defaulted)) {
    for (const error of xrd.validate.errors ?? []) {
      const instancePath = pointer(error.instancePath);
      if (error.keyword === 'additionalProperties') instancePath.push(String((error.params as { additionalProperty: string }).additionalProperty));
      violations.push({ instancePath, schemaPath: pointer(error.schemaPath.replace(/^#/, '')).slice(0, -1), problem: describe(error) });
    }
  }
  const unchecked: XrdUnchecked[] = [];
  if (violations.length === 0) walkRules(xrd.schema, defaulted, [], [], violations, unchecked);
  return { xr: defaulted, violations, unchecked };
}

type Rule = { rule?: string; message?: string; fieldPath?: string };

/** Evaluates each `x-kubernetes-validations` rule with `self` bound to the value its schema node describes. */
function walkRules(
  schema: unknown,
  value: unknown,
  at: Array<string | number>,
  schemaAt: Array<string | number>,
  violations: XrdViolation[],
  unchecked: XrdUnchecked[],
): void {
  if (!isObject(schema) || value === undefined || value === null) return;
  const rules = schema['x-kubernetes-validations'];
  if (Array.isArray(rules)) {
    rules.forEach((raw: Rule, index) => {
      const rulePath = [...schemaAt, 'x-kubernetes-validations', index];
      const rule = raw.rule ?? '';
      if (/\boldSelf\b/.test(rule)) {
        unchecked.push({ schemaPath: rulePath, rule, problem: 'a transition rule (oldSelf) applies to updates; drift only creates XRs' });
        return;
      }
      let result: unknown;
      try {
        result = evaluateCel(rule, { self: toCel(value, schema.type === 'number') });
      } catch (error) {
        unchecked.push({ schemaPath: rulePath, rule, problem: celProblem(error) });
        return;
      }
      if (result === true) return;
      if (result !== false) {
        unchecked.push({ schemaPath: rulePath, rule, problem: `evaluates to ${typeof result}, not a bool` });
        return;
      }
      violations.push({ instancePath: at, schemaPath: rulePath, problem: raw.message ?? `failed rule: ${rule}` });
    });
  }
  if (isObject(value) && isObject(schema.properties)) {
    for (const [key, sub] of Object.entries(schema.properties)) walkRules(sub, value[key], [...at, key], [...schemaAt, 'properties', key], violations, unchecked);
  }
  if (isObject(value) && isObject(schema.additionalProperties)) {
    const declared = isObject(schema.properties) ? schema.properties : {};
    for (const [key, item] of Object.entries(value)) {
      if (!(key in declared)) walkRules(schema.additionalProperties, item, [...at, key], [...schemaAt, 'additionalProperties'], violations, unchecked);
    }
  }
  if (Array.isArray(value) && isObject(schema.items)) {
    value.forEach((item, index) => walkRules(schema.items, item, [...at, index], [...schemaAt, 'items'], violations, unchecked));
  }
}
