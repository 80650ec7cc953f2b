/**
 * The style facets' meta: what each compares across the providers' outlines, an example of a drift
 * it reports, and the fix. The facet registry (registry.ts) lists these beside the rendered facets;
 * docs/style.md describes them. Every style facet src/compare/style.ts judges has an entry here.
 */
export interface StyleFacetMeta {
  /** The `facet` of its findings (`style:<subject>:<id>:<provider>`). */
  id: string;
  class: 'stylistic';
  description: string;
  /** What each provider's value is. */
  compares: string;
  example: string;
  fix: string;
}

export const STYLE_FACETS: readonly StyleFacetMeta[] = [
  {
    id: 'composer',
    class: 'stylistic',
    description: 'The function that composes each contract role, by name.',
    compares: "the names of the functions whose bodies hold the role's composed keys",
    example: 'gke composes node-pool in _nodepools where the others use compose_node_pools',
    fix: 'rename the function to the convention’s name',
  },
  {
    id: 'naming-style',
    class: 'stylistic',
    description: 'The naming style of module constants.',
    compares: 'the set of naming styles (UPPER_SNAKE, camelCase, ...) of the module constants',
    example: 'eks names a constant vpcCidr where every other constant is UPPER_SNAKE',
    fix: 'rename the constant in the convention’s style',
  },
  {
    id: 'idiom',
    class: 'stylistic',
    description: 'How composed resources are written, readiness is marked and decided, and results are emitted.',
    compares: 'the forms of each SDK idiom the package uses (`resource.update(desired.resources[])`, `response.<severity>()`, ...)',
    example: 'nebius writes `desired.resources[].resource.update()` where the others call `resource.update(desired.resources[], body)`',
    fix: 'write the idiom in the convention’s form',
  },
  {
    id: 'readiness-shape',
    class: 'stylistic',
    description: 'How readiness marking is laid out.',
    compares: 'a loop over the desired resources or one key at a time, and whether the decision singles out a literal key',
    example: 'acme marks readiness in the loop but special-cases `key == "cluster"` inside it',
    fix: 'decide readiness as the others do (in-cluster resources ready when composed, cloud resources once observed Ready), without a special case',
  },
  {
    id: 'layout',
    class: 'stylistic',
    description: 'The module and test layout.',
    compares: 'the paths of the package modules, and of the test files',
    example: 'gke adds function/refs.py; eks names its test helpers tests/builder.py',
    fix: 'move the code into the convention’s modules',
  },
  {
    id: 'module',
    class: 'stylistic',
    description: 'The module that defines each helper, by name.',
    compares: 'the file that defines a function or method of that name',
    example: 'gke defines _credentials_ref in function/refs.py where the others keep it in function/composer.py',
    fix: 'move the helper to the convention’s module',
  },
  {
    id: 'helper-name',
    class: 'stylistic',
    description: 'The name of the helper doing each job (docs/style.md: helpers matched by job).',
    compares: 'the names (leading underscores aside) of the helpers with that job',
    example: 'acme names the helper that returns bool and reads observed `_is_ready` where the others use `_observed_ready`',
    fix: 'rename the helper to the convention’s name',
  },
  {
    id: 'helper-visibility',
    class: 'stylistic',
    description: 'Whether the helper doing each job is public or private.',
    compares: 'public or private (a leading underscore) for each helper with that job',
    example: 'acme’s `credentials_ref` is public where the others’ `_credentials_ref` is private',
    fix: 'give the helper the convention’s leading underscore (or drop it)',
  },
  {
    id: 'helper-signature',
    class: 'stylistic',
    description: 'The signature shape of the helper doing each job.',
    compares: 'the count of required positional parameters and whether it takes *args or **kwargs (names, annotations and optional parameters aside)',
    example: 'acme’s `_desire(body, key, extra)` takes three where the others take two',
    fix: 'take the parameters the convention takes',
  },
  {
    id: 'helper-docstring',
    class: 'stylistic',
    description: 'Whether the helpers doing each job carry a docstring.',
    compares: 'documented or undocumented',
    example: 'acme’s `_observed_fact` has no docstring where the others’ do',
    fix: 'add a one-line docstring saying what it does',
  },
  {
    id: 'helper-presence',
    class: 'stylistic',
    description: 'A helper that reads the request’s state and that the convention does without.',
    compares: 'whether a provider defines a helper for that job (judged one way: only a helper the convention lacks is a finding)',
    example: 'only acme defines `_dependents_ready`; the others gate in the role composer',
    fix: 'do the job where the others do (inline it)',
  },
  {
    id: 'data-shape',
    class: 'stylistic',
    description: 'The shape of the data a helper returns for its job.',
    compares: 'dict, tuple, dataclass, NamedTuple or TypedDict, from the return annotation',
    example: 'acme’s `_node_pool` returns a `NodePool` dataclass where the others return a dict',
    fix: 'return the convention’s shape',
  },
  {
    id: 'def-order',
    class: 'stylistic',
    description: 'The order of defs in the composer class.',
    compares: 'the runs of public and private defs (role composers count as public; a helper directly after a def calling it counts with that def)',
    example: 'acme puts a shared private helper between two role composers',
    fix: 'move the def to where the convention has it: shared helpers after the public defs',
  },
  {
    id: 'helper-placement',
    class: 'stylistic',
    description: 'Where a body builder only one role composer calls sits.',
    compares: 'beside its composer (directly after it) or apart from it',
    example: 'eks kept `_node_pool` at the end of the class where the others put it after compose_node_pools',
    fix: 'move the helper where the convention keeps it: directly after the composer that calls it, or apart from it',
  },
  {
    id: 'gate-placement',
    class: 'stylistic',
    description: 'Where the gate holding back a role’s composition is checked.',
    compares: '`composer: if`, `composer: early return`, `call site: if`, and whether a helper of the provider decides the condition',
    example: 'acme gates the node pools at the call site in compose() where the others check inside compose_node_pools',
    fix: 'check the condition where the convention does',
  },
  {
    id: 'constant-literal',
    class: 'stylistic',
    description: 'A value the others name as a module constant, written as a literal (or the reverse).',
    compares: 'named or literal, per string value a provider holds in a module constant',
    example: 'acme writes "modelplane-rwx" where the others use STORAGE_CLASS',
    fix: 'use (or define) the constant the convention has, or write the literal as the others do',
  },
  {
    id: 'constant-name',
    class: 'stylistic',
    description: 'The name of the constant holding the same value (a prefix, an alias).',
    compares: 'the constant’s name, leading underscores aside, per string value and where function bodies use it (`"apiVersion":`, `argument of update`): a value shared by chance, used elsewhere, is another constant; a convention’s outliers only, never a split',
    example: 'acme names it ACME_STORAGE_CLASS where the others use STORAGE_CLASS',
    fix: 'rename the constant to the convention’s name',
  },
  {
    id: 'constant-annotation',
    class: 'stylistic',
    description: 'Whether a structured constant of the same name carries a type annotation.',
    compares: 'annotated or not, per dict, tuple or list constant name (SYSTEM_POOL, DEFAULT_CREDENTIALS); a convention’s outliers only',
    example: 'gke wrote `SYSTEM_POOL = {...}` where the others write `SYSTEM_POOL: dict[str, Any] = {...}`',
    fix: 'annotate it as the others do (or drop the annotation)',
  },
  {
    id: 'type-alias',
    class: 'stylistic',
    description: 'A type the others write out, given an alias (or the reverse).',
    compares: 'the alias’s name, or `written out` where a signature spells the aliased type',
    example: 'acme defines `Body = dict[str, Any]` where the others annotate dict[str, Any]',
    fix: 'write the type as the convention does',
  },
  {
    id: 'annotations',
    class: 'stylistic',
    description: 'How container types are annotated in signatures.',
    compares: 'parameterized (`dict[str, Any]`) or bare (`dict`)',
    example: 'gke annotated `pool: dict -> dict` where the others write `dict[str, Any]`',
    fix: 'parameterize the container types',
  },
  {
    id: 'method-kinds',
    class: 'stylistic',
    description: 'The kinds of method in the composer class.',
    compares: 'instance methods, and any staticmethod, classmethod or property beside them',
    example: 'eks made `_assume_role_policy` a @staticmethod where every other composer method is an instance method',
    fix: 'make it an instance method',
  },
  {
    id: 'comment-sections',
    class: 'stylistic',
    description: 'Comments standing between the composer class’s defs (section banners).',
    compares: 'section comments or none',
    example: 'eks split its composer with `# --- helpers ---` banners where the others order defs without them',
    fix: 'drop the banner; the def order says the same',
  },
  {
    id: 'docstrings',
    class: 'stylistic',
    description: 'Docstrings on the public and role-composing defs.',
    compares: 'whether every public def and every role composer carries a docstring',
    example: 'acme’s compose_network has no docstring',
    fix: 'add a docstring saying what the def composes and when',
  },
];

/** The meta of a style facet, by id. */
export const STYLE_FACET_BY_ID: ReadonlyMap<string, StyleFacetMeta> = new Map(STYLE_FACETS.map((facet) => [facet.id, facet]));
