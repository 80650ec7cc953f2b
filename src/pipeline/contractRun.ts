/**
 * The generated contract of a project: what goes into it, and whether the committed files are still
 * what drift would write. Only team decisions go in (rules' meta, the contract's roles, locked
 * conventions, accepted entries, the committed outlines, which providers exist), never a render.
 */
import path from 'node:path';
import type { AcceptedEntry } from '../compare/acceptance.js';
import { RULE_METAS } from '../compare/rules/index.js';
import { agreedStyle, type StyleSubject } from '../compare/style.js';
import type { Adapter, Project } from '../config/types.js';
import { describeRoles } from '../roles/resolve.js';
import { ContractStore } from '../goldens/contractStore.js';
import { ConventionStore } from '../goldens/conventionStore.js';
import { outlineFile } from '../goldens/environment.js';
import { GoldenStore } from '../goldens/store.js';
import { contractFiles } from '../report/contract/files.js';
import type { ContractInput, ExampleProvider } from '../report/contract/contractModel.js';
import { compareText } from '../util/objects.js';
import { parseOutlineGolden } from '../goldens/format.js';

const posix = (file: string) => file.split(path.sep).join('/');

function exampleOf(project: Project, adapter: Adapter): ExampleProvider {
  const root = new GoldenStore(project.config.root);
  const relative = (file: string) => posix(path.relative(project.config.root, file));
  const optional = (file: string) => (root.has(relative(file)) ? relative(file) : undefined);
  const readme = optional(path.join(adapter.dir, 'README.md'));
  const tests = optional(path.join(adapter.source?.root ?? adapter.function.cwd, 'tests'));
  // The function's package: the `-m` module of the command when there is one, else its working folder.
  const at = adapter.function.command.indexOf('-m');
  const module = at >= 0 ? adapter.function.command[at + 1] : undefined;
  const pkg = module ? optional(path.join(adapter.function.cwd, module.split('.')[0]!)) : undefined;
  return {
    name: adapter.name,
    xr: { apiVersion: adapter.xr.apiVersion, kind: adapter.xr.kind },
    files: {
      adapter: relative(adapter.file),
      function: pkg ?? relative(adapter.function.cwd),
      ...(tests ? { tests } : {}),
      ...(readme ? { readme } : {}),
    },
  };
}

/**
 * Each provider's committed outline: the contract's style facets need nothing else (no roles, no
 * places).
 */
function committedOutlines(project: Project): StyleSubject[] {
  const store = GoldenStore.of(project);
  return project.adapters.flatMap((adapter) => {
    const outline = parseOutlineGolden(store.read(outlineFile(adapter.name)), project.cache);
    return outline ? [{ provider: adapter.name, outline, places: new Map<string, string>(), root: adapter.name, keys: new Map<string, string>() }] : [];
  });
}

export function contractInput(project: Project, accepted: readonly AcceptedEntry[]): ContractInput {
  const root = project.config.root;
  const outlines = committedOutlines(project);
  return {
    rules: RULE_METAS,
    roles: describeRoles(),
    providers: [...project.adapters].sort((a, b) => compareText(a.name, b.name)).map((adapter) => exampleOf(project, adapter)),
    accepted,
    locked: ConventionStore.of(project).load(),
    // Over the providers that have a committed outline: a new one without is left out until its
    // outline golden is written (drift update -p), never the whole section.
    style: agreedStyle(outlines),
    paths: {
      contractDir: posix(path.relative(root, ContractStore.of(project).dir)) || '.',
      accepted: posix(path.relative(root, GoldenStore.of(project).acceptedFile)),
      conventions: posix(path.relative(root, ConventionStore.of(project).file)),
    },
  };
}

/** What `drift contract` would write for this project. */
export function generatedContract(project: Project, accepted: readonly AcceptedEntry[]): Array<{ file: string; text: string }> {
  return contractFiles(contractInput(project, accepted));
}
