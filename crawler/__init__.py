"""The crawler: Wayback captures of CR releases and witness pages, kept as evidence."""
