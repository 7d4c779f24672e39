"""Pictures drawn at build time as inline SVG: the releases timeline, a clause's numbers over
the years, a renumbering's old -> new sections. Each is an `<svg role="img">` named by its
`<title>` and `<desc>` (aria-labelledby), scaled by its viewBox to any width, and shown beside
a table or list that says the same in words."""
