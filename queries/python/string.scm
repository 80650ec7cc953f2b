; Every string literal: named-vs-literal constants, and keys.
(string) @string
