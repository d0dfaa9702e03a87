"""Ask the real Go standard library: the oracle for ``wendy_llm.render.gostd`` and
``wendy_llm.render.goregexp``.

A tiny Go program (built once per test session with the project's Go
toolchain) reads a JSON batch of questions on stdin and answers each with
the very function the Wendy CLI calls (``strconv.Atoi``,
``strconv.ParseBool``, ``strconv.Quote``, ``strings.TrimSpace``,
``fmt.Sprintf("%v", float64)``, ``regexp.MatchString``).
"""

from __future__ import annotations

import functools
import json
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from wendy_llm.engine.toolchain import build_env, cache_dir, find_go

_MAIN_GO = r"""
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

type request struct {
	Atoi      []string    `json:"atoi"`
	ParseBool []string    `json:"parsebool"`
	Quote     []string    `json:"quote"`
	TrimSpace []string    `json:"trimspace"`
	Float     []float64   `json:"float"`
	Regexp    [][2]string `json:"regexp"`
}

type intAnswer struct {
	Value int  `json:"value"`
	OK    bool `json:"ok"`
}

type boolAnswer struct {
	Value bool `json:"value"`
	OK    bool `json:"ok"`
}

type matchAnswer struct {
	Match bool   `json:"match"`
	Error string `json:"error"`
}

type response struct {
	Atoi      []intAnswer   `json:"atoi"`
	ParseBool []boolAnswer  `json:"parsebool"`
	Quote     []string      `json:"quote"`
	TrimSpace []string      `json:"trimspace"`
	Float     []string      `json:"float"`
	Regexp    []matchAnswer `json:"regexp"`
}

func main() {
	var req request
	if err := json.NewDecoder(os.Stdin).Decode(&req); err != nil {
		panic(err)
	}
	resp := response{}
	for _, s := range req.Atoi {
		v, err := strconv.Atoi(s)
		resp.Atoi = append(resp.Atoi, intAnswer{v, err == nil})
	}
	for _, s := range req.ParseBool {
		v, err := strconv.ParseBool(s)
		resp.ParseBool = append(resp.ParseBool, boolAnswer{v, err == nil})
	}
	for _, s := range req.Quote {
		resp.Quote = append(resp.Quote, strconv.Quote(s))
	}
	for _, s := range req.TrimSpace {
		resp.TrimSpace = append(resp.TrimSpace, strings.TrimSpace(s))
	}
	for _, f := range req.Float {
		resp.Float = append(resp.Float, fmt.Sprintf("%v", f))
	}
	for _, pair := range req.Regexp {
		m, err := regexp.MatchString(pair[0], pair[1])
		answer := matchAnswer{Match: m}
		if err != nil {
			answer.Error = err.Error()
		}
		resp.Regexp = append(resp.Regexp, answer)
	}
	if err := json.NewEncoder(os.Stdout).Encode(resp); err != nil {
		panic(err)
	}
}
"""


@dataclass(frozen=True)
class GoMatch:
    match: bool
    error: str


@functools.cache
def _oracle_binary() -> Path:
    go = find_go()
    build_dir = Path(tempfile.mkdtemp(prefix="wendy-go-oracle-"))
    (build_dir / "go.mod").write_text("module oracle\n\ngo 1.22\n")
    (build_dir / "main.go").write_text(_MAIN_GO)
    binary = build_dir / "oracle"
    subprocess.run(
        [str(go), "build", "-o", str(binary), "."],
        cwd=build_dir,
        env=build_env(go, cache_dir()),
        check=True,
        capture_output=True,
        timeout=300,
    )
    return binary


def ask_go(request: dict[str, object]) -> dict[str, object]:
    proc = subprocess.run(
        [str(_oracle_binary())],
        input=json.dumps(request).encode(),
        capture_output=True,
        check=True,
        timeout=60,
    )
    answer: dict[str, object] = json.loads(proc.stdout)
    return answer


def go_atoi(texts: list[str]) -> list[int | None]:
    answers = ask_go({"atoi": texts})["atoi"]
    assert isinstance(answers, list)
    return [a["value"] if a["ok"] else None for a in answers]


def go_parse_bool(texts: list[str]) -> list[bool | None]:
    answers = ask_go({"parsebool": texts})["parsebool"]
    assert isinstance(answers, list)
    return [a["value"] if a["ok"] else None for a in answers]


def go_strings(kind: str, texts: list[str]) -> list[str]:
    answers = ask_go({kind: texts})[kind]
    assert isinstance(answers, list)
    return [str(a) for a in answers]


def go_float_v(values: list[float]) -> list[str]:
    answers = ask_go({"float": values})["float"]
    assert isinstance(answers, list)
    return [str(a) for a in answers]


def go_match(pairs: list[tuple[str, str]]) -> list[GoMatch]:
    answers = ask_go({"regexp": [list(p) for p in pairs]})["regexp"]
    assert isinstance(answers, list)
    return [GoMatch(match=bool(a["match"]), error=str(a["error"])) for a in answers]
