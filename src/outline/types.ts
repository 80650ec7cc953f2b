import type { Tree } from 'web-tree-sitter';

/**
 * The source outline: what a contributor learns when they open a provider's code, reduced to a
 * deterministic structure that is compared across providers like a skeleton. Positions never enter
 * it (an unrelated edit must not change the golden); they travel beside it in `Places`, for hints.
 */

/** Bumped when the outline's shape changes, so an old golden is refused with a hint. */
export const OUTLINE_VERSION = 4;

export type FileKind = 'package-marker' | 'module' | 'test' | 'test-helper';

/** How a module-level name is spelled. */
export type NamingStyle = 'UPPER_SNAKE' | 'snake_case' | 'camelCase' | 'PascalCase' | 'other';

export interface FunctionOutline {
  /** Normalized: parameters and return annotation from the syntax tree, whitespace collapsed. */
  signature: string;
  docstring: boolean;
  decorators?: string[];
  async?: true;
  /**
   * What of the request the body reads itself, found by data flow whatever the names it is read
   * through (`self.req`, a parameter, an attribute set in `__init__`, a dataclass field): `observed`
   * (the observed resources), `desired` (the response's desired state), `response` (the rest of the
   * response: results), `credentials` (the XR's spec.credentials, the required resources), `xr`
   * (the rest of the XR), `context`, `request` (the request as a whole), sorted.
   */
  request?: string[];
  /** Without a return annotation: `None` when no `return` in the body hands back a value. */
  returns?: 'None';
  /** Functions of this provider the body calls, by name, sorted (a `?` suffix: only under a condition). */
  calls?: string[];
}

/** A module-level assignment: its naming style, and a string's value, a type alias's text or the value's shape. */
export interface ConstantOutline {
  style: NamingStyle;
  /** Written with a type annotation (`SYSTEM_POOL: dict[str, Any] = ...`). */
  annotated?: true;
  value?: string;
  /** Where a string constant's value goes in function bodies (`"name":`, `argument of update`), sorted: see useOf in python.ts. */
  usedAs?: string[];
  alias?: string;
  shape?: string;
}

export interface ClassOutline {
  bases: string[];
  docstring: boolean;
  methods: Record<string, FunctionOutline>;
  /** The methods in source order. */
  order: string[];
  /** `dataclass`, `namedtuple`, `typeddict`: a class that is a record of data. */
  shape?: string;
  /** Comments standing between the class's definitions (section banners). */
  comments?: number;
}

export interface ModuleOutline {
  /** `function/composer.py` → `function.composer`; a package's `__init__.py` → the package. */
  module: string;
  kind: FileKind;
  docstring: boolean;
  /** Imported names, each as `module.name` (or the module for `import x`), sorted. */
  imports: string[];
  /** Module-level constants: naming style and value. */
  constants: Record<string, ConstantOutline>;
  classes: Record<string, ClassOutline>;
  functions: Record<string, FunctionOutline>;
  /** Module-level functions and classes in source order. */
  order: string[];
  /** Comments at module level below the first definition, each heading a definition: section banners between module functions. */
  comments?: number;
  /**
   * Qualified names written as string literals in function bodies (`modelplane.ai/pool`,
   * `storage.k8s.io/v1`), each with where it goes (as a constant's `usedAs`): the values the others
   * may hold in a constant for the same use, sorted. Kept in the golden so
   * a provider judged with `-p` is compared with what the others write inline.
   */
  literals?: Record<string, string[]>;
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
  /** How readiness marking is laid out: a loop over the desired resources or one key at a time, special cases. */
  readinessShape: string[];
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
  /**
   * Where each composed key's gate is checked, relative to the write: `composer: if` (nested in the
   * composing function), `composer: early return`, `call site: if` (the caller calls the composer
   * only under a condition), `helper` added when a function of the provider decides the condition;
   * keys written unconditionally are left out.
   */
  gates: Record<string, string>;
}

/**
 * `file:line` of what an outline names, never serialized: `def:Composer.compose_node_pools`,
 * `class:Composer`, `const:<file>:<NAME>`, `import:<file>:<text>`, `call:<file>:<callee>` (first call),
 * `sdk:…`, `idiom:…`, `compose:<pattern>`, `gate:<pattern>`, `literal:<value>` (first use), `literal:<value>@<use>` (first use so), `file:<file>`;
 * for findings (src/compare/where.ts): `gates:<pattern>#<n>:<keys>` (every condition the write waits on,
 * outermost first, with the string literals it names), `body:<pattern>` (the def that makes the body
 * written) and `envelope:<pattern>` (the def that finally builds the object), `result:<severity>:<line>:<message>`
 * (each result call, f-string holes as `{}`), `status-write:<def>` (a def handing the desired composite to a write).
 */
export type Places = Map<string, string>;

/** An `except` that catches every error and swallows it, around a block that reads observed state. */
export interface SwallowedFact {
  /** Relative to the source root. */
  file: string;
  line: number;
  /** The function holding the `try`. */
  qualified: string;
  /** The provider's functions the guarded block calls that read observed state (directly or through their calls). */
  reads: string[];
}

export interface OutlineResult {
  outline: Outline;
  places: Places;
  /** Swallowed errors around reads of observed state (compare/rules/swallowed-fact.ts); never serialized into the outline. */
  swallowed?: SwallowedFact[];
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

/** One query match as the grammar reports it: each capture's node by its range and type. */
export interface QueryFact {
  query: string;
  captures: Record<string, { start: number; end: number; type: string }>;
}

/** Parses one file's text and runs the language's queries on it; the grammar is loaded by the caller (see grammar.ts). */
export type ParseText = (text: string) => { tree: Tree; facts: () => QueryFact[] };
