; `for target in iterable:` — key bindings over literal rows, and readiness loops.
(for_statement
  left: (_) @target
  right: (_) @iterable) @loop
