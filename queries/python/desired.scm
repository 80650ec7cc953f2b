; `<rsp>.desired.resources[key]`: a composed resource of the response, by key.
(subscript
  value: (attribute
    object: [(identifier) (attribute)] @owner
    attribute: (identifier) @field (#eq? @field "resources"))
  subscript: (_) @key) @subscript
