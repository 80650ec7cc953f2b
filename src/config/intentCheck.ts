import path from 'node:path';
import { InputError } from '../errors.js';
import type { Adapter, Scenario } from './types.js';
import { mapIntent } from './intent.js';
import type { Locator } from './yamlFile.js';

/**
 * Builds every adapter's XR for every scenario before anything runs: a template that fails, an
 * intent field no XR field carries, or an XR its XRD rejects is an error naming the adapter's line
 * (and the scenario's or the XRD's); a validation rule drift cannot evaluate is a warning.
 */
export function checkIntent(
  root: string,
  adapters: Array<{ adapter: Adapter; locate: Locator }>,
  scenarios: Array<{ scenario: Scenario; locate: Locator }>,
): string[] {
  const rel = (file: string) => path.relative(root, file) || file;
  const warnings = new Set<string>();
  for (const { adapter, locate } of adapters) {
    for (const { scenario, locate: locateScenario } of scenarios) {
      const mapped = mapIntent(adapter, scenario);
      const at = (where: Array<string | number>) => locate(where);
      const template = mapped.errors[0];
      if (template) {
        const { line, col } = at(template.templatePath);
        throw new InputError(adapter.file, line, col, `xr template, for scenario ${rel(scenario.file)}: ${template.problem}`);
      }
      const unplaced = mapped.unplaced[0];
      if (unplaced) {
        const { line, col } = at(['xr', 'spec']);
        const set = locateScenario(unplaced.scenarioPath);
        throw new InputError(
          adapter.file,
          line,
          col,
          `scenario ${rel(scenario.file)}:${set.line}:${set.col} sets ${unplaced.name}, but xr.spec never reads it, so no XR field carries it; ` +
            `place it (e.g. "\${p.${unplaced.scenarioPath.at(-1)}}" in the pool's map) or drop it from the scenario`,
        );
      }
      const violation = mapped.violations[0];
      if (violation && adapter.xrd) {
        const { line, col } = at(['xr', ...violation.instancePath]);
        const rule = adapter.xrd.locate([...adapter.xrd.schemaAt, ...violation.schemaPath]);
        const field = violation.instancePath.join('.') || 'the XR';
        throw new InputError(
          adapter.file,
          line,
          col,
          `the XR for scenario ${rel(scenario.file)} is rejected by its XRD: ${field}: ${violation.problem} ` +
            `(${rel(adapter.xrd.file)}:${rule.line}:${rule.col}, openAPIV3Schema.${violation.schemaPath.join('.') || '(root)'}); fix xr.spec or the XRD`,
        );
      }
      for (const unchecked of mapped.unchecked) {
        const { line, col } = adapter.xrd!.locate([...adapter.xrd!.schemaAt, ...unchecked.schemaPath]);
        warnings.add(`${rel(adapter.xrd!.file)}:${line}:${col}: warning: rule ${JSON.stringify(unchecked.rule)} not checked: ${unchecked.problem}`);
      }
    }
  }
  return [...warnings].sort();
}
