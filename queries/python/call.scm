; A call of a plain or dotted name: `f(x)`, `self._desire(k, b)`, `response.normal(rsp, m)`.
(call
  function: [(identifier) (attribute)] @callee
  arguments: (argument_list) @arguments) @call
