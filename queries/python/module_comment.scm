; A comment at module level: below the first definition, a section banner between module functions.
(module (comment) @comment)
