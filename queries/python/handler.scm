; `try: ... except ...:`: each handler with the block it guards, to tell one that swallows what that block reads.
(try_statement
  body: (block) @guarded
  (except_clause) @handler)
