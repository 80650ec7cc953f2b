; `try: ... except ...:`: each handler with the block it guards, to tell one that swallows what that block reads.
(try_statement
  body: (block) @guarded
  (except_clause) @handler)
; `with suppress(...):` (contextlib's): a handler too, around the block it guards.
(with_statement
  (with_clause
    (with_item
      value: (call function: (_) @suppress)))
  body: (block) @guarded) @handler
