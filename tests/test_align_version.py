"""ALIGN_VERSION changes whenever the alignment algorithm does (issue 10)."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

from lineage.store import ALIGN_VERSION
from lineage.version import ALGORITHM_FILES, RECORD, ROOT, problem


def copy_sources(target: Path) -> Path:
    for name in ALGORITHM_FILES:
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, target / name)
    return target


def test_the_record_matches_the_algorithm_and_its_version() -> None:
    assert problem() is None


def test_a_changed_aligner_without_a_new_version_fails(tmp_path: Path) -> None:
    root = copy_sources(tmp_path)
    assert problem(root, RECORD, ALIGN_VERSION) is None
    aligner = root / "lineage" / "align.py"
    aligner.write_text(aligner.read_text() + "\nSTRICT = 70.0\n")
    found = problem(root, RECORD, ALIGN_VERSION)
    assert found is not None and "lineage/align.py changed" in found and "bump it" in found
    # with the version bumped, only the record is stale
    assert "out of date" in (problem(root, RECORD, ALIGN_VERSION + 1) or "")


def test_a_changed_normalisation_without_a_new_version_fails(tmp_path: Path) -> None:
    root = copy_sources(tmp_path)
    normaliser = root / "archive" / "normalise.py"
    normaliser.write_text(normaliser.read_text().replace('"\\u2122": ""', '"\\u2122": "TM"'))
    assert "archive/normalise.py changed" in (problem(root, RECORD, ALIGN_VERSION) or "")


def _imported_closure(module: str) -> set[str]:
    """The project's modules that `module` imports, directly or not, itself included."""
    packages = {path.parent.name for path in ROOT.glob("*/__init__.py")}
    seen, todo = set(), [module]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        tree = ast.parse((ROOT / (name.replace(".", "/") + ".py")).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in packages:
                todo.append(str(node.module))
    return seen


def test_every_module_the_aligner_imports_is_hashed() -> None:
    """A change to any module the aligner reads changes alignments: each one is recorded,
    so that changing it without a new ALIGN_VERSION fails the test above."""
    wanted = {name.replace(".", "/") + ".py" for name in _imported_closure("lineage.align")}
    assert wanted == set(ALGORITHM_FILES)


def test_a_changed_split_search_without_a_new_version_fails(tmp_path: Path) -> None:
    root = copy_sources(tmp_path)
    splits = root / "lineage" / "splits.py"
    splits.write_text(splits.read_text().replace("CONTAINED = 0.7", "CONTAINED = 0.6"))
    assert "lineage/splits.py changed" in (problem(root, RECORD, ALIGN_VERSION) or "")
