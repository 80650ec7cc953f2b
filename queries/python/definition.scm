; Every function and class, wherever it is defined.
[
  (function_definition name: (identifier) @name)
  (class_definition name: (identifier) @name)
] @definition
