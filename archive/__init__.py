"""The archive: committed captures of every CR release and the SQLite store built from them."""
