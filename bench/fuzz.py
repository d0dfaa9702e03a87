"""Fuzz the library: random templates, data, manifests, pickers and ``--var`` values.

``make fuzz`` (= ``python bench/fuzz.py [--cases N] [--seed S] [--case K]``);
not part of CI: 20,000 cases take minutes.  Each case is built from its own
seed (``--case K`` replays case K alone) and is one of:

- ``render``: a random template text (valid and broken Go templates, deep
  nesting, huge outputs, non-UTF-8 bytes, lone surrogates) with random data
  (every Python type, sizes, nesting, cycles) through a ``Renderer`` with a
  short timeout and a small output cap;
- ``template``: random ``template.json`` / ``template.schema.json`` text and
  files, loaded with ``template_from_files``, then picks, values (random app
  ids and ``--var`` overrides, strict or not), renders and lint.

Findings: an exception that is not a ``WendyLlmError`` (untyped), a case
still running after ``--hang`` seconds (a hang), and a helper process of
this run still alive at the end (a leak).  Exit status 1 on any finding.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from decimal import Decimal
from pathlib import Path
from types import FrameType

from wendy_llm import (
    Renderer,
    RenderJob,
    UnknownVariableWarning,
    WendyLlmError,
    shared_renderer,
    template_from_files,
)
from wendy_llm.engine.process import PARENT_PID_ENV

TOKENS = [
    "x", " ", "\n", "é☃", "\x00", "\udc80", "{{", "}}", "{{.A}}", "{{.B.C}}", "{{.M.k}}",
    "{{.Missing}}", "{{if .A}}", "{{else}}", "{{else if .B}}", "{{end}}", "{{range .L}}",
    "{{range $i, $e := .L}}", "{{$e}}", "{{range 3}}", "{{break}}", "{{continue}}",
    "{{with .M}}", '{{define "d"}}', '{{template "d" .}}', '{{block "b" .}}x{{end}}',
    '{{printf "%v|%T|%q" .A .A .A}}', '{{index .M "k"}}', "{{index .L 99}}", "{{len .L}}",
    "{{eq .A 1}}", "{{lt .A .B}}", "{{and .A .B}}", "{{or .A .B}}", "{{not .A}}", "{{- ",
    " -}}", "{{/* c */}}", "{{$x := 1}}{{$x}}", "{{$x}}", "{{nil}}", "{{call .A}}",
    "{{slice .S 1 2}}", "{{html .S}}", "{{js .S}}", "{{urlquery .S}}", "{{print .A .L}}",
    '{{"unterminated}}', "{{.A.B.C.D}}", "{{(.A)}}", "{{|}}", "{{.A | printf}}", "}}{{",
]  # fmt: skip
TEXTS = ["", "a", "gemma4:e2b", " 5", "-0", "true", "T", "1e3", "a, b ,c", ",", "é", "\udc80",
         "x" * 300, "9" * 5000, "0x10", "\u3000t\u3000", "a\x00b", "{{.A}}", "8080"]  # fmt: skip
PATTERNS = ["^[a-z]+$", "(?=a)", r"\p{Greek}", "a{1001}", "(", "[[:alpha:]]", r"\d+", "\ud800",
            "a" * 50 + "*", "(?i)k", r"\Qa.b\E", "[", ""]  # fmt: skip
APP_IDS = ["my-app", "", "  ", "true", "123", "a/b", "-x", ".x", "\udc80x", "\ud800", "x" * 300,
           "app é", "llm-app", "nul", "1e5", "2024-01-02"]  # fmt: skip


class Hang(BaseException):
    """Raised by the alarm in a case that ran too long."""


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang


# --- random inputs -------------------------------------------------------------------


def rarely(rng: random.Random, chance: float = 0.02) -> bool:
    """True for the few cases that feed a known-bad input (most should go deep)."""
    return rng.random() < chance


def text(rng: random.Random) -> str:
    if rarely(rng, 0.004):
        return "a\ud800"  # a lone surrogate: no UTF-8 form
    return rng.choice(TEXTS) if rng.random() < 0.7 else "".join(rng.choices(TOKENS, k=3))


def template_text(rng: random.Random) -> str | bytes:
    shape = rng.random()
    if shape < 0.1:  # deep nesting
        depth = rng.choice([10, 100, 1000, 10000])
        body = "{{if .A}}" * depth + "x" + "{{end}}" * depth
    elif shape < 0.15:  # huge output
        body = "{{range .L}}{{range $.L}}" + "y" * rng.randint(1, 100) + "{{end}}{{end}}"
    else:
        body = "".join(rng.choices(TOKENS, k=rng.randint(0, 30)))
    if rng.random() < 0.2:
        raw = body.encode("utf-8", "surrogatepass")
        cut = rng.randint(0, len(raw))
        return raw[:cut] + bytes(rng.choices(range(256), k=rng.randint(1, 8))) + raw[cut:]
    return body


def value(rng: random.Random, depth: int = 0) -> object:
    if rarely(rng, 0.005):
        return rng.choice([Decimal("1.5"), object(), {1, 2}, 1j, type, 2**63, -(2**70)])
    if rarely(rng, 0.005):
        nested: object = "leaf"
        for _ in range(rng.choice([50, 199, 250])):
            nested = [nested]
        return nested
    kind = rng.randrange(11 if depth < 4 else 8)
    simple: list[Callable[[], object]] = [
        lambda: text(rng),
        lambda: rng.choice([b"b\xff", bytearray(b"ba"), memoryview(b"mv")]),
        lambda: rng.choice([True, False, None]),
        lambda: rng.choice([0, -1, 8080, 2**63 - 1, -(2**63)]),
        lambda: rng.choice([8080.0, -0.0, 1e6, float("nan"), float("inf"), 5e-324]),
        lambda: rng.randint(-5, 5),
        lambda: rng.random(),
        lambda: rng.choice(TEXTS),
    ]
    if kind < len(simple):
        return simple[kind]()
    if kind < 10:
        return [value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {text(rng): value(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def data(rng: random.Random) -> object:
    if rarely(rng):
        return rng.choice([[], "not a map", None])
    out: dict[object, object] = {k: value(rng) for k in ("A", "B", "M", "S")}
    out["L"] = list(range(rng.choice([0, 3, 50, 2000])))
    if rarely(rng):
        out[rng.choice([1, None, b"k"])] = 1
    if rarely(rng):
        cycle: list[object] = []
        cycle.append(cycle)
        out["C"] = cycle
    return out


def json_value(rng: random.Random) -> object:
    if rarely(rng):
        return rng.choice([[1], {"a": 1}])  # not a scalar: a shape error
    return rng.choice([text(rng), rng.randint(-10, 70000), 8080, 1e6, 0.5, True, None, -0.0])


def variable(rng: random.Random) -> dict[str, object]:
    out: dict[str, object] = {"name": rng.choice(["PORT", "NAME", "ON", "APP_ID", "X", text(rng)])}
    if rng.random() < 0.8:
        out["type"] = 5 if rarely(rng) else rng.choice(["integer", "boolean", "string", "", "x"])
    if rng.random() < 0.7:
        out["default"] = json_value(rng)
    if rng.random() < 0.5:
        rules: dict[str, object] = {"min": rng.randint(-5, 10), "max": rng.randint(0, 70000)}
        rules["pattern"] = rng.choice(PATTERNS)
        out["validate"] = {k: v for k, v in rules.items() if rng.random() < 0.5}
    return out


def question(rng: random.Random, ids: Sequence[str]) -> dict[str, object]:
    kind = "select" if rarely(rng) else rng.choice(["radio", "checkbox", "input"])
    out: dict[str, object] = {"id": rng.choice(ids), "type": kind, "label": "q"}
    if kind != "input" or rng.random() < 0.2:
        out["options"] = [{"value": text(rng), "label": "o"} for _ in range(rng.randint(0, 6))]
    for key, make in (("default", lambda: text(rng)), ("required", lambda: rng.random() < 0.5)):
        if rng.random() < 0.5:
            out[key] = make()
    if rng.random() < 0.3:
        how = rng.choice(["equals", "in", "contains"])
        wanted: object = [text(rng)] if how == "in" else text(rng)
        out["when"] = {"questionId": rng.choice([*ids, "PORT"]), how: wanted}
    return out


def manifest_text(rng: random.Random, document: object) -> bytes:
    raw = json.dumps(document).encode()
    mutation = rng.random()
    if mutation < 0.02:
        return raw[: rng.randint(0, len(raw))]  # broken JSON
    if mutation < 0.04:
        depth = rng.choice([100, 600, 3000])
        return raw.replace(b"[", b"[" * depth + b"[", 1).replace(b"]", b"]" * depth + b"]", 1)
    if mutation < 0.06:
        return raw.replace(b"8080", rng.choice([b"1" * 5000, b"1e999", b"NaN", b"-0"]))
    if mutation < 0.07:
        return raw + b"\xff"
    return raw


def template_files(rng: random.Random) -> dict[str, bytes]:
    manifest = {"variables": [variable(rng) for _ in range(rng.randint(0, 4))]}
    files = {"template.json": manifest_text(rng, manifest)}
    if rng.random() < 0.8:
        ids = [f"Q{i}" for i in range(rng.randint(1, 7))]
        phases = [
            {"questions": [question(rng, ids) for _ in range(rng.randint(0, 4))]}
            for _ in range(rng.randint(1, 3))
        ]
        files["template.schema.json"] = manifest_text(rng, {"phases": phases})
    for path in rng.sample(["a.txt", "x/demo/b.yaml", "Dockerfile", "c.png", "d.sh"], 3):
        body = template_text(rng)
        files[path] = body if isinstance(body, bytes) else body.encode("utf-8", "surrogatepass")
    return files


# --- cases ---------------------------------------------------------------------------


def render_case(rng: random.Random, renderer: Renderer) -> str:
    jobs = [RenderJob(template_text(rng), data(rng), text(rng)) for _ in range(rng.randint(1, 3))]  # type: ignore[arg-type]
    if len(jobs) == 1 and rng.random() < 0.5:
        renderer.render(jobs[0].text, jobs[0].data, jobs[0].name)
    else:
        renderer.render_many(jobs)
    return "ok"


def template_case(rng: random.Random, renderer: Renderer) -> str:
    template = template_from_files("fuzz/demo", template_files(rng))
    picks = template.picks()
    for pick in rng.sample(picks, min(2, len(picks))):
        overrides = dict(pick.answers)
        for _ in range(rng.randint(0, 3)):
            overrides[rng.choice(["PORT", "NAME", "ON", "Q0", "Q1", text(rng)])] = text(rng)
        strict = rng.random() < 0.5
        app_id = rng.choice(APP_IDS) if rng.random() < 0.4 else "my-app"
        with warnings.catch_warnings():
            # Unknown names are part of what is fuzzed; without strict they warn.
            warnings.simplefilter("ignore", UnknownVariableWarning)
            template.values(app_id, overrides, strict=strict)
            template.render(app_id, overrides, strict=strict, renderer=renderer)
    if rng.random() < 0.3:
        template.lint(renderer=renderer)
    return "ok"


Case = Callable[[random.Random, Renderer], str]
CASES: tuple[Case, ...] = (render_case, template_case)


def run_case(index: int, seed: int, renderer: Renderer, hang_s: float) -> tuple[str, str, str]:
    """(kind, outcome, detail); outcome: ok, typed:<class>, untyped, hang."""
    rng = random.Random(f"{seed}:{index}")
    case = rng.choice(CASES)
    kind = case.__name__.removesuffix("_case")
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, hang_s)
    try:
        return kind, case(rng, renderer), ""
    except WendyLlmError as exc:
        return kind, f"typed:{type(exc).__name__}", ""
    except Hang:
        return kind, "hang", f"still running after {hang_s:g}s"
    except Exception:  # every other exception is what the fuzz looks for
        return kind, "untyped", traceback.format_exc(limit=8)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def helpers_of_this_run() -> list[int]:
    """Live (non-zombie) processes started with this process as their parent pid."""
    marker = f"{PARENT_PID_ENV}={os.getpid()}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in environ and state not in ("Z", "X"):
            found.append(int(entry.name))
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--case", type=int, help="replay this one case")
    parser.add_argument("--hang", type=float, default=60.0, help="seconds before a case hangs")
    args = parser.parse_args(argv)
    indices = [args.case] if args.case is not None else range(args.cases)
    outcomes: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    findings: list[str] = []
    start = time.perf_counter()
    with Renderer(timeout=2.0, max_output_bytes=1 << 20) as renderer:
        for done, index in enumerate(indices, 1):
            kind, outcome, detail = run_case(index, args.seed, renderer, args.hang)
            outcomes[outcome] += 1
            kinds[kind] += 1
            if outcome in ("untyped", "hang"):
                findings.append(f"case {index} ({kind}, {outcome}): {detail}")
            if done % 1000 == 0:
                print(f"  {done} cases, {time.perf_counter() - start:.0f}s", flush=True)
    shared_renderer().close()
    elapsed = time.perf_counter() - start
    leaked = helpers_of_this_run()
    total = sum(outcomes.values())
    print(f"fuzz: {total} cases (seed {args.seed}) in {elapsed:.1f}s ({total / elapsed:.0f}/s)")
    print("  " + ", ".join(f"{k}: {v}" for k, v in sorted(kinds.items())))
    for outcome, count in sorted(outcomes.items()):
        print(f"  {outcome:<32} {count}")
    print(f"  untyped exceptions: {outcomes['untyped']}, hangs: {outcomes['hang']}, "
          f"leaked helper processes: {len(leaked)} {leaked or ''}")  # fmt: skip
    # Each distinct finding (its last traceback line) once, with a count and an example.
    seen: dict[str, list[str]] = {}
    for finding in findings:
        seen.setdefault(finding.rstrip().rsplit("\n", 1)[-1], []).append(finding)
    for last, same in seen.items():
        print(f"\n{len(same)} x {last}\nfirst: {same[0]}")
    return 1 if findings or leaked else 0


if __name__ == "__main__":
    sys.exit(main())
