"""The mutation check (``python -m harness.mutants``, ``make mutants``).

The harness, run on a few of the catalogue's mutants (the full run is
``make mutants``): the unmutated template must pass every check (or kills
prove nothing), each chosen mutant must be killed by every check it names, a
mutant caught only by other checks is *missed* (the check it names is
blind), a change only the golden fixtures notice is not a kill, and a mutant
that no longer applies, or names no check, is an error, never a silent
no-op.  Issue 14's meaning classes, through ``wendy-llm check``, are in
``test_mutants_meaning_classes.py``.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest
from harness import mutants as mutants_module
from harness.catalogue import MUTANTS, TEMPLATE_ID
from harness.mutants import format_report, format_result, main, select
from harness.mutation import (
    ENTRYPOINT,
    Edit,
    Mutant,
    MutantError,
    MutationReport,
    apply_edits,
    check_killed_by,
    check_mutants,
    expected_warning,
    run_mutation,
)

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE_DIR = ROOT / "templates" / TEMPLATE_ID
GOLDEN_DIR = ROOT / "golden"
COMPOSE = "docker-compose.yml"

# One mutant per kind of check; the harness must see each killed by what it names.
CHOSEN = (
    "drop-trim-marker",
    "dflash-keeps-ollama-volume",
    "dockerfile-without-chmod",
    "unbounded-fast-exits",
    "sentinel-with-colon",
    "dflash-webui-image-points-at-ollama",
    "vllm-gpu-memory-0.9",
)
# Reworded prose: the golden fixtures see it, nothing else should.
HARMLESS = Mutant(
    "reworded-readme-heading",
    "a README heading reworded",
    ("baseline",),
    (Edit("README.md", "## Which model for which device", "## Which model on which device"),),
)
# A real regression, declared as the device check's: topology catches it, the
# device check does not (compose environment alone, which a device ignores).
MISNAMED = Mutant(
    "dflash-keeps-ollama-url-as-device",
    "the DFlash render still points Open WebUI at Ollama, in compose only",
    ("device",),
    select(["dflash-keeps-ollama-url"])[0].edits,
)


# A decision undone, declared as another rule's: topology fails, but not with
# a finding of the rule the mutant names, so that rule is blind to it.
MISRULED = Mutant(
    "gpu-memory-as-drafter",
    "vLLM's GPU memory utilisation back to 0.9, declared as the drafter rule's",
    ("topology:dflash-drafter",),
    select(["vllm-gpu-memory-0.9"])[0].edits,
)


@pytest.fixture(scope="module")
def report() -> MutationReport:
    chosen = [*select(list(CHOSEN)), HARMLESS, MISNAMED, MISRULED]
    return run_mutation(TEMPLATE_DIR, GOLDEN_DIR, TEMPLATE_ID, chosen)


def test_the_unmutated_template_passes_every_check(report: MutationReport) -> None:
    assert report.control == (), "\n".join(f"{f.check}: {f.message}" for f in report.control)


def test_the_control_may_only_warn_about_what_a_device_ignores_by_design() -> None:
    not_read = "wendy.json is not read on the compose path"
    assert expected_warning(
        "device",
        "wendy.json",
        "wendy.json: not read on the compose path (wendy run deploys docker-compose.yml): ...",
    )
    assert expected_warning(
        "device",
        COMPOSE,
        "services.vllm.healthcheck: ignored on a device: only Docker Compose runs it; ...",
    )
    assert expected_warning(
        "device", "wendy.json", f"hooks: the post-start hook is lost on a device ({not_read})"
    )
    # The same words from another file or check, or another service's, fail the control.
    assert not expected_warning(
        "device", COMPOSE, f"hooks: the post-start hook is lost on a device ({not_read})"
    )
    assert not expected_warning(
        "device", COMPOSE, "services.ollama.healthcheck: ignored on a device: only Docker ..."
    )
    assert not expected_warning("compose", "wendy.json", "wendy.json: not read on the ...")
    # A compose environment the image does not carry is no longer accepted.
    assert not expected_warning(
        "device", COMPOSE, "services.ollama.environment: not sent to the device"
    )
    assert not expected_warning("device", "wendy.json", "wendy.json: anything")


@pytest.mark.parametrize("name", CHOSEN)
def test_mutants_are_killed_by_the_checks_they_name(report: MutationReport, name: str) -> None:
    (result,) = [r for r in report.results if r.mutant.name == name]
    assert result.killed, f"{name}: {[f.check for f in result.failures]}"
    assert set(result.mutant.killed_by) <= set(result.killers)
    assert result.missed_by == ()


def test_a_mutant_caught_only_by_other_checks_is_missed(report: MutationReport) -> None:
    (result,) = [r for r in report.results if r.mutant is MISNAMED]
    assert "topology" in result.killers
    assert result.missed_by == ("device",)
    assert not result.killed


def test_a_mutant_naming_another_rule_is_missed(report: MutationReport) -> None:
    (result,) = [r for r in report.results if r.mutant is MISRULED]
    assert {"topology", "topology:vllm-gpu-memory"} <= set(result.killers)
    assert result.missed_by == ("topology:dflash-drafter",)
    assert not result.killed


def test_a_mutant_naming_no_rule_of_the_rules_file_is_refused() -> None:
    unknown = Mutant("x", "names a rule that does not exist", ("topology:no-such-rule",), ())
    with pytest.raises(MutantError, match=r"'topology:no-such-rule', but .* has no such rule"):
        run_mutation(TEMPLATE_DIR, GOLDEN_DIR, TEMPLATE_ID, [unknown])


def test_a_change_only_the_golden_fixtures_see_is_not_a_kill(report: MutationReport) -> None:
    (result,) = [r for r in report.results if r.mutant is HARMLESS]
    assert [f.check for f in result.failures] == ["golden"]
    assert not result.killed
    assert not report.all_killed
    assert report.killed == len(CHOSEN)


def test_every_catalogue_mutant_applies_and_names_its_checks() -> None:
    check_mutants(TEMPLATE_DIR, MUTANTS)
    names = [m.name for m in MUTANTS]
    assert len(set(names)) == len(names)
    assert all(m.edits and all(e.search != e.replace for e in m.edits) for m in MUTANTS)


@pytest.mark.parametrize(
    ("killed_by", "error"),
    [
        ((), "killed_by names no check"),
        (("golden",), "killed_by names 'golden', which fails on any byte that moves"),
        (("topolgy",), "killed_by names 'topolgy', which is no check"),
        ((f"{ENTRYPOINT}:no-such-behaviour",), "'entrypoint:no-such-behaviour', which is no"),
    ],
    ids=["none", "golden", "typo", "unknown-behaviour"],
)
def test_a_mutant_must_name_the_checks_that_kill_it(killed_by: tuple[str, ...], error: str) -> None:
    mutant = Mutant("unnamed", "names no valid check", killed_by, HARMLESS.edits)
    with pytest.raises(MutantError, match=re.escape(error)):
        check_killed_by(mutant)


@pytest.mark.parametrize(
    "search", ["this text is not in the file", "{{- end}}"], ids=["absent", "repeated"]
)
def test_a_search_string_must_occur_exactly_once(tmp_path: Path, search: str) -> None:
    text = (TEMPLATE_DIR / COMPOSE).read_text(encoding="utf-8")
    count = text.count(search)
    assert count != 1
    (tmp_path / COMPOSE).write_text(text, encoding="utf-8")
    mutant = Mutant("stale", "no longer applies", ("compose",), (Edit(COMPOSE, search, "x"),))
    with pytest.raises(MutantError, match=f"occurs {count} times, expected exactly once"):
        apply_edits(tmp_path, mutant)


def test_a_mutant_naming_a_missing_file_is_refused(tmp_path: Path) -> None:
    mutant = Mutant("lost", "its file is gone", ("shell",), (Edit("gone.sh", "a", "b"),))
    with pytest.raises(MutantError, match=re.escape("has no file gone.sh")):
        apply_edits(tmp_path, mutant)


def _run_main(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def test_the_command_lists_the_mutants_and_their_checks() -> None:
    status, out, _ = _run_main("--list")
    assert status == 0
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == [m.name for m in MUTANTS]
    assert lines[0].endswith(f"killed by {', '.join(MUTANTS[0].killed_by)}")


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


def test_the_report_names_the_blind_check(report: MutationReport) -> None:
    # What `make mutants` prints for a mutant caught only by other checks (it
    # then exits 1: not every mutant was killed).
    (result,) = [r for r in report.results if r.mutant is MISNAMED]
    first, description = format_result(result, verbose=False)
    assert first.split()[:2] == ["MISSED", MISNAMED.name]
    assert first.endswith("(not device: blind to it)")
    assert description.endswith("[killed by device]")
    summary = format_report(report)
    assert summary[0] == f"kill rate: {len(CHOSEN)}/{len(CHOSEN) + 3} (70%)"
    assert summary[1].startswith(
        f"caught only by other checks than they name: {MISNAMED.name}, {MISRULED.name} "
        "(the named check is blind"
    )
