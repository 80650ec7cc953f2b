; A comment standing between a class's definitions: a section banner, not a note inside a body.
(class_definition
  body: (block (comment) @comment))
