"""The crawler's size limits, in a module with no imports so the CLI can show them cheaply."""

# A body over this is refused: the largest CR text is 1.7 MB, witness pages are smaller.
MAX_BYTES = 20 * 1024 * 1024
# The committed catalogue is 34 KB for 143 sources; one over this is no catalogue (a device
# such as /dev/zero, a wrong file), refused before it fills memory.
MAX_CATALOGUE_BYTES = 5_000_000
