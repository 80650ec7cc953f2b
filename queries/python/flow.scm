; `self.x = value`: an attribute bound to what it is assigned, for the request's data flow.
(assignment
  left: (attribute) @target
  right: (_) @value) @binding
