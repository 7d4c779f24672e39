"""The words every stage shares: kinds of change, rule numbers, word tokens.

The bottom layer: it imports nothing of the project, and everything else may import it. The
site's JavaScript gets its copy of these definitions generated from here (`as_json`), never
retyped.
"""
