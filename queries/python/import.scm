; `import a.b` and `import a.b as c`: one match per imported name.
(import_statement
  name: [(dotted_name) (aliased_import)] @name) @statement
