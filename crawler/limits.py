"""The crawler's size limits, in a module with no imports so the CLI can show them cheaply."""

# A body over this is refused: the largest CR text is 1.7 MB, witness pages are smaller.
MAX_BYTES = 20 * 1024 * 1024
