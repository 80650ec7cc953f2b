; `from a.b import c, d as e`: one match per imported name.
(import_from_statement
  module_name: (_) @module
  name: [(dotted_name) (aliased_import)] @name) @statement
