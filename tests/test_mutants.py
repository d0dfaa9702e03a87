"""The mutation check (``python -m harness.mutants``, ``make mutants``).

Two parts.  The harness: run on a few of the catalogue's mutants (the full
run is ``make mutants``), the unmutated template must pass every check (or
kills prove nothing), each chosen mutant must be killed by every check it
names, a mutant caught only by other checks is *missed* (the check it names
is blind), a change only the golden fixtures notice is not a kill, and a
mutant that no longer applies, or names no check, is an error, never a
silent no-op.

And issue 14's meaning classes (item 6): each catalogue mutant of them,
applied to a copy of the template, fails ``wendy-llm check`` (exit 1), run
in-process on the pick it concerns, with a failure line a reviewer
understands: the pick, the check it names, the file, and the service,
volume, key or rule at fault.  The unmutated copy passes for the same
picks.
"""

from __future__ import annotations

import contextlib
import io
import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from _cli_helpers import copy_llm_project
from harness import mutants as mutants_module
from harness.catalogue import MUTANTS, TEMPLATE_ID
from harness.mutants import format_report, format_result, main, select
from harness.mutation import (
    ENTRYPOINT,
    Edit,
    Mutant,
    MutationReport,
    apply_edits,
    check_killed_by,
    check_mutants,
    expected_warning,
    run_mutation,
)

from wendy_llm import cli
from wendy_llm.errors import MutantError

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE_DIR = ROOT / "templates" / TEMPLATE_ID
GOLDEN_DIR = ROOT / "golden"

DFLASH = "laguna-s-2.1-dflash"
OLLAMA = "gemma4-e2b"
COMPOSE = "docker-compose.yml"
VARIANT = "variant app-id=my.app-2 PORT=9080: "

# One mutant per kind of check; the harness must see each killed by what it names.
CHOSEN = (
    "drop-trim-marker",
    "dflash-keeps-ollama-volume",
    "dockerfile-without-chmod",
    "unbounded-fast-exits",
    "sentinel-with-colon",
    "dflash-webui-image-points-at-ollama",
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


def _mutant(name: str) -> Mutant:
    (mutant,) = select([name])
    return mutant


@pytest.fixture(scope="module")
def report() -> MutationReport:
    chosen = [*select(list(CHOSEN)), HARMLESS, MISNAMED]
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
    assert summary[0] == f"kill rate: {len(CHOSEN)}/{len(CHOSEN) + 2} (75%)"
    assert summary[1].startswith(
        f"caught only by other checks than they name: {MISNAMED.name} (the named check is blind"
    )


# --- issue 14 item 6: each meaning class fails `check` with a readable message ----------


@dataclass(frozen=True)
class Line:
    """A failure line ``check`` must print: its check, its file, and words it must hold."""

    check: str
    file: str
    words: tuple[str, ...]


def line(check: str, file: str, *words: str) -> Line:
    return Line(check, file, words)


@dataclass(frozen=True)
class Case:
    pick: str
    lines: tuple[Line, ...]


_SERVICE_LLM_IS_OLLAMA = "rule 'dflash-has-no-ollama': service 'llm' is ollama ("
_API_KEY = "rule 'dflash-api-key': the values differ: "
_SENTINEL_PULLED = (
    f"is '{DFLASH}', a sentinel of OLLAMA_MODEL, not an Ollama tag: "
    "the sentinel must never reach an Ollama pull"
)

#: Mutant -> the pick whose `check` it fails, and lines the output must hold.
MEANING_CASES: dict[str, Case] = {
    # 1. a backend service renamed: topology, by identity.
    "ollama-service-renamed": Case(
        DFLASH,
        (
            line(
                "topology",
                COMPOSE,
                _SERVICE_LLM_IS_OLLAMA,
                "its build ends on the image ollama/ollama:",
                "it publishes port 11434 (11434:11434)",
                "which must be absent (vLLM replaces the Ollama backend)",
            ),
        ),
    ),
    # 2. the backend's volume under another key: the baseline-relative volume rule.
    "ollama-volume-under-another-key": Case(
        DFLASH,
        (
            line(
                "topology",
                COMPOSE,
                "rule 'dflash-has-no-ollama': volume 'weights' is ollama-data (the baseline ",
                f"rendered with OLLAMA_MODEL={DFLASH} has a volume named llm-app-models: "
                "service 'ollama' mounts it at /models",
                "(each backend has its own volume, so their data never collide)",
            ),
        ),
    ),
    # 3. hard-coded app ids: the variant input (app id my.app-2) sees them.
    "hard-coded-app-id": Case(
        OLLAMA,
        (
            line(
                "compose",
                COMPOSE,
                VARIANT,
                'service "open-webui" refers to undefined volume llm-app-openwebui',
            ),
            line(
                "baseline",
                COMPOSE,
                f"pick {OLLAMA}, {VARIANT}docker-compose.yml differs from the stored baseline",
            ),
        ),
    ),
    "hard-coded-app-id-volume": Case(
        OLLAMA,
        (
            line(
                "topology",
                "golden/python/llm.rules.yaml",
                VARIANT,
                "rule 'open-webui-and-app': no volume matches name my.app-2-openwebui and "
                "mounted_by open-webui and target /data (one must)",
            ),
            line("baseline", COMPOSE, "differs from the stored baseline"),
        ),
    ),
    "hard-coded-app-id-in-wendy-json": Case(
        OLLAMA,
        (
            line(
                "topology",
                "wendy.json",
                VARIANT,
                "rule 'open-webui-and-app': wendy.appId is 'llm-app', expected 'my.app-2'",
            ),
            line("baseline", "wendy.json", "wendy.json differs from the stored baseline"),
        ),
    ),
    # 4. hard-coded ports: the variant input (PORT 9080) sees them.
    "hard-coded-port": Case(
        OLLAMA,
        (
            line(
                "topology",
                COMPOSE,
                VARIANT,
                "rule 'open-webui-and-app': compose.services.@open-webui.ports[*].published "
                "(@open-webui: 'open-webui') does not contain '9080' (it has '8080')",
            ),
            line("baseline", COMPOSE, "differs from the stored baseline"),
        ),
    ),
    "hard-coded-port-in-image": Case(
        OLLAMA,
        (
            line(
                "topology",
                "open-webui/Dockerfile",
                VARIANT,
                "rule 'open-webui-and-app': the values differ: "
                "compose.services.open-webui.environment.PORT",
                "is '9080'; device.services.open-webui.environment.values.PORT",
                "is '8080' (the image listens where compose publishes)",
            ),
            line(
                "device",
                COMPOSE,
                VARIANT,
                'services.open-webui.environment.PORT is "9080", but the image '
                "(open-webui/Dockerfile:",
                'sets PORT="8080"',
            ),
        ),
    ),
    # 5. a new pick leaking a blank line: held to the baseline rendered with its answers.
    "new-pick-leaks-blank-line": Case(
        "phi4-14b",
        (
            line(
                "baseline",
                COMPOSE,
                "template python/llm, pick phi4-14b: docker-compose.yml differs from the stored "
                "baseline golden/baseline/python/llm",
            ),
        ),
    ),
    # 6. the API key changed in one file: a relation across files.
    "api-key-changed-in-compose": Case(
        DFLASH,
        (
            line(
                "topology",
                COMPOSE,
                _API_KEY,
                "compose.services.open-webui.environment.OPENAI_API_KEY (docker-compose.yml:",
                "is 'wendy-local-vllm'; device.services.vllm.environment.values.VLLM_API_KEY "
                "(vllm/Dockerfile:",
                "(change the key in every file together)",
            ),
            line(
                "device",
                COMPOSE,
                'services.open-webui.environment.OPENAI_API_KEY is "wendy-local-vllm", but the '
                "image (open-webui/Dockerfile:",
            ),
        ),
    ),
    "api-key-changed-in-vllm-image": Case(
        DFLASH,
        (
            line(
                "topology",
                "vllm/Dockerfile",
                _API_KEY,
                "device.services.vllm.environment.values.VLLM_API_KEY (vllm/Dockerfile:",
                "is 'wendy-local-vllm'",
            ),
        ),
    ),
    "api-key-changed-in-webui-image": Case(
        DFLASH,
        (
            line(
                "topology",
                "open-webui/Dockerfile",
                _API_KEY,
                "device.services.open-webui.environment.values.OPENAI_API_KEY "
                "(open-webui/Dockerfile:",
                "is 'wendy-local-vllm'",
            ),
            line(
                "device",
                COMPOSE,
                "services.open-webui.environment.OPENAI_API_KEY",
                'sets OPENAI_API_KEY="wendy-local-vllm"',
            ),
        ),
    ),
    # 7. DFlash switched off: text assertions on the entrypoint, the image's switch.
    "dflash-off-in-entrypoint": Case(
        DFLASH,
        (
            line(
                "topology",
                "vllm/entrypoint.sh",
                "rule 'dflash-speculative-decoding': vllm/entrypoint.sh has nothing matching",
                "(vLLM is asked for DFlash speculative decoding when the drafter is there)",
            ),
        ),
    ),
    "dflash-disabled-by-image": Case(
        DFLASH,
        (
            line(
                "topology",
                "vllm/Dockerfile",
                "rule 'dflash-speculative-decoding': device.services.vllm.environment.values."
                "DFLASH_DISABLE is '1', expected '0' (the image leaves DFlash on)",
            ),
        ),
    ),
    # 8. long-syntax ports: `wendy run` cannot load the file.
    "long-syntax-ports": Case(
        DFLASH,
        (
            line(
                "device",
                COMPOSE,
                "services.vllm.ports[0] is a mapping (the long syntax), but the Wendy CLI reads "
                "ports as strings: wendy run fails to load docker-compose.yml at all",
            ),
        ),
    ),
    # 9. the sentinel reaching an Ollama pull.
    "sentinel-in-ollama-image": Case(
        DFLASH,
        (
            line(
                "picker",
                "ollama/Dockerfile",
                f"dockerfiles.ollama/Dockerfile.environment.values.OLLAMA_MODEL {_SENTINEL_PULLED}",
            ),
        ),
    ),
    "sentinel-in-compose-env": Case(
        DFLASH,
        (
            line(
                "picker",
                COMPOSE,
                f"compose.services.vllm.environment.OLLAMA_MODEL {_SENTINEL_PULLED}",
            ),
            line(
                "topology",
                COMPOSE,
                "rule 'dflash-has-no-ollama': service 'vllm' is ollama (its compose environment "
                "sets OLLAMA_MODEL)",
            ),
        ),
    ),
    # and: Open WebUI's image still wired to Ollama in the DFlash pick.
    "dflash-webui-image-points-at-ollama": Case(
        DFLASH,
        (
            line(
                "device",
                "open-webui/Dockerfile",
                "ENV OLLAMA_BASE_URL=http://ollama:11434 (the image of service open-webui): "
                "ollama is no service of this app, so on a device the container talks to a "
                "backend that is not there (the app's services: open-webui, vllm)",
            ),
        ),
    ),
}

# `  python/llm PICK [CHECK] FILE[:LINE]: MESSAGE` (the location is absent for some).
_FAILURE = re.compile(r"^  (?P<template>\S+) (?P<pick>\S+) \[(?P<check>[^\]]+)\] (?P<rest>.*)$")


@dataclass(frozen=True)
class Printed:
    pick: str
    check: str
    text: str  # location and message

    def matches(self, want: Line) -> bool:
        return (
            self.check == want.check
            and re.match(rf"{re.escape(want.file)}(:\d+)?: ", self.text) is not None
            and all(word in self.text for word in want.words)
        )


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_llm_project(tmp_path_factory.mktemp("llm"))


def check_output(root: Path, picks: Sequence[str]) -> tuple[int, list[Printed]]:
    """``wendy-llm check --quiet`` of python/llm in ``root``, in-process: the exit
    status and the failure lines (paths in messages relative to ``root``)."""
    argv = ["check", "templates", "--template", TEMPLATE_ID, "--quiet"]
    for pick in picks:
        argv += ["--pick", pick]
    out, err = io.StringIO(), io.StringIO()
    with (
        pytest.MonkeyPatch.context() as patch,
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        patch.chdir(root)
        status = cli.main(argv)
    assert err.getvalue() == "", err.getvalue()
    printed = []
    for text in out.getvalue().splitlines():
        match = _FAILURE.match(text)
        if match and match["template"] == TEMPLATE_ID:
            printed.append(Printed(match["pick"], match["check"], match["rest"]))
    return status, printed


def test_the_unmutated_template_passes_check_for_every_pick_the_cases_use(
    project: Path,
) -> None:
    picks = sorted({case.pick for case in MEANING_CASES.values()} - {"phi4-14b"})
    assert check_output(project, picks) == (0, [])


def test_every_meaning_class_of_issue_14_is_in_the_catalogue() -> None:
    names = {m.name for m in MUTANTS}
    assert set(MEANING_CASES) <= names


@pytest.mark.parametrize("name", sorted(MEANING_CASES))
def test_each_meaning_class_fails_check_with_a_message_a_reviewer_understands(
    project: Path, tmp_path: Path, name: str
) -> None:
    mutant, case = _mutant(name), MEANING_CASES[name]
    root = tmp_path / "project"
    shutil.copytree(project, root)
    apply_edits(root / "templates" / TEMPLATE_ID, mutant)
    status, printed = check_output(root, [case.pick])
    shown = "\n".join(f"{p.pick} [{p.check}] {p.text}" for p in printed)
    assert status == 1, shown
    assert {p.pick for p in printed} == {case.pick}, shown
    # Each check the catalogue names fails (the entrypoint behaviours are not `check`'s).
    named = [c for c in mutant.killed_by if not c.startswith(f"{ENTRYPOINT}:")]
    assert set(named) <= {p.check for p in printed}, shown
    for want in case.lines:
        assert any(p.matches(want) for p in printed), f"no {want} in:\n{shown}"
