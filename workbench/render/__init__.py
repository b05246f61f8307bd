"""Output people look at: SVG charts (and, later, other writers). Family-agnostic."""
