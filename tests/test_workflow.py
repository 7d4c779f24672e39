"""The scheduled workflow that runs `rules-history update` and publishes the site.

It is checked against the GitHub workflow schema vendored by check-jsonschema (offline;
actionlint's binary cannot be fetched here), against actionlint as well where its binary is
on the PATH, and read for what it must do: run on a schedule, run `update`, commit the new
captures, build, and publish through upload-pages-artifact and deploy-pages.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

WORKFLOW = Path(__file__).resolve().parent.parent / ".github" / "workflows" / "update.yml"


def schema_check(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema"]
        + ["vendor.github-workflows", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )


def workflow() -> dict[Any, Any]:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def steps(job: str) -> list[dict[str, Any]]:
    return workflow()["jobs"][job]["steps"]


def test_the_workflow_passes_the_github_workflow_schema():
    result = schema_check(WORKFLOW)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_schema_check_refuses_a_broken_workflow(tmp_path):
    broken = tmp_path / "broken.yml"
    text = WORKFLOW.read_text(encoding="utf-8").replace("runs-on: ubuntu-latest", "runs_on: x", 1)
    broken.write_text(text, encoding="utf-8")
    assert schema_check(broken).returncode != 0


@pytest.mark.skipif(shutil.which("actionlint") is None, reason="no actionlint binary on PATH")
def test_the_workflow_passes_actionlint():
    result = subprocess.run(
        ["actionlint", str(WORKFLOW)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_it_runs_update_on_a_schedule_then_builds_and_publishes_to_pages():
    data = workflow()
    triggers = data.get("on", data.get(True))  # YAML 1.1 reads the key `on` as true
    (schedule,) = triggers["schedule"]
    assert len(schedule["cron"].split()) == 5
    assert "workflow_dispatch" in triggers
    assert data["permissions"] == {"contents": "write", "pages": "write", "id-token": "write"}
    update = steps("update")
    runs = [step.get("run", "") for step in update]
    uses = [step.get("uses", "") for step in update]
    order = [
        next(i for i, run in enumerate(runs) if "rules-history update" in run),
        next(i for i, run in enumerate(runs) if "git push" in run),
        next(i for i, run in enumerate(runs) if "rules-history build" in run),
        next(i for i, use in enumerate(uses) if use.startswith("actions/upload-pages-artifact@")),
    ]
    assert order == sorted(order)
    (deploy,) = steps("deploy")
    assert deploy["uses"].startswith("actions/deploy-pages@")
    assert workflow()["jobs"]["deploy"]["environment"]["name"] == "github-pages"
