; `self.<attribute>` and `<name>.<attribute>`: what a body reads of the request and the composer's state.
(attribute
  object: (identifier) @object
  attribute: (identifier) @attribute) @read
