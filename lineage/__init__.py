"""Lineage, diff and blame: which clause of one release continues which clause of another.

Reads parsed releases from the store (`archive`), aligns them, writes the lineage tables, and
answers trace, diff and blame from them. Knows nothing of captures, the crawler or the site.
"""
