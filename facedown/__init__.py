"""Executable examples: the face-down rules as a small model run against each CR release.

- `era`: what one release's archived text says (which rules, which characteristics).
- `characteristics`: reading a list of face-down characteristics out of a sentence.
- `model`: the actions on face-down objects, each answered from an era's text with cites.
- `scenarios`: the questions, their sources and their expected answers per era.
- `run`: every scenario against every release it applies to; changes flagged.
"""
