"""The mutation check (``python -m harness.mutants``, ``make mutants``).

Runs it on a few of the catalogue's mutants (the full run is ``make
mutants``): the unmutated template must pass every check (or kills prove
nothing), each chosen mutant must be killed by the check it exists for, a
change only the golden fixtures notice is not a kill, and a mutant that no
longer applies to the template is an error, never a silent no-op.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest
from harness import mutants as mutants_module
from harness.mutants import MUTANTS, TEMPLATE_ID, main, select
from harness.mutation import (
    Edit,
    Mutant,
    MutationReport,
    apply_edits,
    check_mutants,
    expected_warning,
    run_mutation,
)

from wendy_llm.errors import MutantError

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE_DIR = ROOT / "templates" / TEMPLATE_ID
GOLDEN_DIR = ROOT / "golden"

# A few mutants, one per kind of check, and the check that must kill each.
EXPECTED_KILLERS = {
    "drop-trim-marker": "baseline",
    "dflash-keeps-ollama-volume": "topology",
    "dockerfile-without-chmod": "dockerfile",
    "unbounded-fast-exits": "entrypoint:vllm-fast-deaths-give-up",
    "sentinel-with-colon": "picker",
    "dflash-webui-image-points-at-ollama": "device",
}
# Reworded prose: the golden fixtures see it, nothing else should.
HARMLESS = Mutant(
    "reworded-readme-heading",
    "a README heading reworded",
    (Edit("README.md", "## Which model for which device", "## Which model on which device"),),
)


@pytest.fixture(scope="module")
def report() -> MutationReport:
    chosen = [*select(list(EXPECTED_KILLERS)), HARMLESS]
    return run_mutation(TEMPLATE_DIR, GOLDEN_DIR, TEMPLATE_ID, chosen)


def test_the_unmutated_template_passes_every_check(report: MutationReport) -> None:
    assert report.control == (), "\n".join(f"{f.check}: {f.message}" for f in report.control)


def test_the_control_may_only_warn_about_what_a_device_ignores_by_design() -> None:
    assert expected_warning("device", "wendy.json: not read on the compose path (...)")
    assert expected_warning("device", "services.vllm.healthcheck: ignored on a device: ...")
    assert expected_warning("device", "hooks: the post-start hook is lost on a device (...)")
    # A compose environment the image does not carry is no longer accepted.
    assert not expected_warning("device", "services.ollama.environment: not sent to the device")
    assert not expected_warning("compose", "wendy.json: anything")


@pytest.mark.parametrize(("name", "killer"), sorted(EXPECTED_KILLERS.items()))
def test_mutants_are_killed_by_the_check_they_exist_for(
    report: MutationReport, name: str, killer: str
) -> None:
    (result,) = [r for r in report.results if r.mutant.name == name]
    assert result.killed
    assert killer in result.killers, f"{name} was killed by {result.killers}, not {killer}"


def test_a_change_only_the_golden_fixtures_see_is_not_a_kill(report: MutationReport) -> None:
    (result,) = [r for r in report.results if r.mutant is HARMLESS]
    assert [f.check for f in result.failures] == ["golden"]
    assert not result.killed
    assert not report.all_killed
    assert report.killed == len(EXPECTED_KILLERS)


def test_every_catalogue_mutant_applies_to_the_template() -> None:
    check_mutants(TEMPLATE_DIR, MUTANTS)
    names = [m.name for m in MUTANTS]
    assert len(set(names)) == len(names)
    assert all(m.edits and all(e.search != e.replace for e in m.edits) for m in MUTANTS)


@pytest.mark.parametrize(
    "search", ["this text is not in the file", "{{- end}}"], ids=["absent", "repeated"]
)
def test_a_search_string_must_occur_exactly_once(tmp_path: Path, search: str) -> None:
    text = (TEMPLATE_DIR / "docker-compose.yml").read_text(encoding="utf-8")
    count = text.count(search)
    assert count != 1
    (tmp_path / "docker-compose.yml").write_text(text, encoding="utf-8")
    mutant = Mutant("stale", "no longer applies", (Edit("docker-compose.yml", search, "x"),))
    with pytest.raises(MutantError, match=f"occurs {count} times, expected exactly once"):
        apply_edits(tmp_path, mutant)


def test_a_mutant_naming_a_missing_file_is_refused(tmp_path: Path) -> None:
    mutant = Mutant("lost", "its file is gone", (Edit("gone.sh", "a", "b"),))
    with pytest.raises(MutantError, match=re.escape("has no file gone.sh")):
        apply_edits(tmp_path, mutant)


def _run_main(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def test_the_command_lists_the_mutants() -> None:
    status, out, _ = _run_main("--list")
    assert status == 0
    assert [line.split()[0] for line in out.splitlines()] == [m.name for m in MUTANTS]


def test_the_command_refuses_an_unknown_mutant() -> None:
    status, _, err = _run_main("--only", "no-such-mutant")
    assert status == 2
    assert "no mutant no-such-mutant" in err


def test_the_command_reports_kills_and_the_kill_rate() -> None:
    status, out, _ = _run_main("--only", "readiness-port-hard-coded", "--verbose")
    assert status == 0, out
    lines = out.splitlines()
    assert any(
        line.split()[:2] == ["KILLED", "readiness-port-hard-coded"] and "baseline" in line
        for line in lines
    )
    assert "kill rate: 1/1 (100%)" in lines


def test_the_command_fails_when_a_mutant_survives(monkeypatch: pytest.MonkeyPatch) -> None:
    # `make mutants` must go red when the suite misses a regression: a
    # catalogue holding only a change no check but the fixtures sees.
    monkeypatch.setattr(mutants_module, "MUTANTS", (HARMLESS,))
    status, out, _ = _run_main("--only", HARMLESS.name)
    assert status == 1, out
    lines = out.splitlines()
    assert any(line.split()[:2] == ["SURVIVED", HARMLESS.name] for line in lines), out
    assert "kill rate: 0/1 (0%)" in lines
