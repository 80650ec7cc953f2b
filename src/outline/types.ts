/**
 * The source outline: what a contributor learns when they open a provider's code, reduced to a
 * deterministic structure that is compared across providers like a skeleton. Positions never enter
 * it (an unrelated edit must not change the golden); they travel beside it in `Places`, for hints.
 */

/** Bumped when the outline's shape changes, so an old golden is refused with a hint. */
export const OUTLINE_VERSION = 1;

export type FileKind = 'package-marker' | 'module' | 'test' | 'test-helper';

/** How a module-level name is spelled. */
export type NamingStyle = 'UPPER_SNAKE' | 'snake_case' | 'camelCase' | 'PascalCase' | 'other';

export interface FunctionOutline {
  /** Normalized: parameters and return annotation from the syntax tree, whitespace collapsed. */
  signature: string;
  docstring: boolean;
  decorators?: string[];
  async?: true;
}

export interface ClassOutline {
  bases: string[];
  docstring: boolean;
  methods: Record<string, FunctionOutline>;
}

export interface ModuleOutline {
  /** `function/composer.py` → `function.composer`; a package's `__init__.py` → the package. */
  module: string;
  kind: FileKind;
  docstring: boolean;
  /** Imported names, each as `module.name` (or the module for `import x`), sorted. */
  imports: string[];
  /** Module-level constants and their naming style. */
  constants: Record<string, NamingStyle>;
  classes: Record<string, ClassOutline>;
  functions: Record<string, FunctionOutline>;
  /** Call targets on imported SDK modules (`resource.update`, `response.normal`), sorted. */
  sdkCalls: string[];
  /** Set when the file does not parse; the rest of the outline is what could be read. */
  syntaxError?: true;
}

/** The idioms the contract cares about, each as the sorted set of forms a provider uses. */
export interface Idioms {
  /** How composed resources are written: `resource.update(...)`, `<desired>.resource.update(...)`, ... */
  resourceWrite: string[];
  /** How readiness is marked: `<desired>.ready = READY_TRUE`, or a helper call. */
  readinessMark: string[];
  /** What the readiness decision consults: constants and call targets in the marking condition. */
  readinessBy: string[];
  /** How results (events) are emitted: `response.normal`, `response.fatal`, `<rsp>.results.add`, ... */
  results: string[];
}

export interface Outline {
  outline: typeof OUTLINE_VERSION;
  provider: string;
  language: string;
  /** Relative to the source root, sorted. */
  files: Record<string, ModuleOutline>;
  idioms: Idioms;
  /**
   * The link to behaviour: for each composed key or key pattern (`nodepool-{}`), the function whose
   * body holds it (`Composer.compose_node_pools`), not the shared helper it is handed to.
   */
  composes: Record<string, string>;
}

/** `file:line` of what an outline names, keyed like `def:Composer.compose_node_pools`. Never serialized. */
export type Places = Map<string, string>;

export interface OutlineResult {
  outline: Outline;
  places: Places;
  /** Files that did not parse, each with where the first error is. */
  syntaxErrors: Array<{ file: string; line: number; column: number }>;
  /** Milliseconds spent parsing and reducing. */
  ms: number;
}

/** A source file handed to the outliner: its path relative to the source root, and its text. */
export interface SourceText {
  path: string;
  text: string;
}
