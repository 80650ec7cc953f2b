; `NAME = value` and `NAME: type = value`: module constants at the top level, local bindings in a body.
(assignment
  left: (identifier) @name
  right: (_) @value) @assignment
