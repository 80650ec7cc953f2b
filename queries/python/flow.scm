; A name a body uses: the root of what it reads (`req.observed.resources[k]`, `observed`, `self.rsp`), for the request's data flow.
(identifier) @name
; `self.x = value`: an attribute bound to what it is assigned, for the request's data flow.
(assignment
  left: (attribute) @target
  right: (_) @value) @binding
