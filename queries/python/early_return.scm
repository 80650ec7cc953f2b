; `if condition: ... return`: a gate checked by leaving the function early (the block ends in a return).
(if_statement
  condition: (_) @condition
  consequence: (block (return_statement) @return .)) @gate
