"""One render as topology rules see it: its documents, its services and volumes, its baseline.

The documents a path can start with:

- ``compose``: the **normalised Compose model** of the compose file (the
  root one, or the one ``documents: compose:`` names): what
  ``docker-compose config`` prints, with paths relative to the project
  (:mod:`compose_normal`).  Findings point at the compose file's lines;
- ``device``: the **device view** (:mod:`wendy_llm.device`), as ``plan
  --json`` prints it but with ``services`` keyed by name, and each built
  service's ``build.arg_defaults`` (every ``ARG`` its Dockerfile declares,
  with its default: null for none);
- ``dockerfiles``: every Dockerfile of the render, keyed by its path, built
  as the Wendy CLI builds a service's (each device profile's build args),
  whether or not a service of this render builds it: its ``environment``
  (as in ``device``) and ``base_images``.  So a value an image would carry
  is seen even in a render that ships the Dockerfile but builds no service
  from it (python/llm's DFlash render still holds ``ollama/Dockerfile``);
- ``wendy``: ``wendy.json``; any other name the rules file declares under
  ``documents:``: that file, parsed as written (JSON or YAML).

Selectors (:mod:`selectors`) see the services and volumes of
:mod:`facts`; ``baseline`` traits see another :class:`Subject`: the
template's stored baseline rendered with the same answers.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from wendy_llm.codes import Check
from wendy_llm.device import DeviceView
from wendy_llm.device.images import env_positions, parse_dockerfile
from wendy_llm.docker.context import is_dockerfile_name
from wendy_llm.docker.model import arg_decls
from wendy_llm.validate.documents.locate import LineIndex, PathKey
from wendy_llm.validate.documents.parse import (
    COMPOSE_NAMES,
    Documents,
    Parsed,
    parse_json,
    parse_yaml,
)
from wendy_llm.validate.rules import facts
from wendy_llm.validate.rules.docpath import DocPath, Match, resolve
from wendy_llm.validate.rules.selectors import Evaluator, Named, Ref
from wendy_llm.validate.rules.values import DocumentProblem, RuleProblem, substitute
from wendy_llm.validate.tools.compose_run import ComposeResult

CHECK = Check.TOPOLOGY


@dataclass(frozen=True)
class RuleDocument:
    """A document paths walk into, where its findings point, or why it cannot be read."""

    file: str
    data: object
    lines: LineIndex
    problem: str | None = None  # the document exists but cannot be evaluated
    problem_line: int | None = None
    #: Values read from another file than ``file`` (an image's ENV: its Dockerfile).
    elsewhere: Mapping[PathKey, tuple[str, int]] = field(default_factory=dict)

    def locate(self, keys: Sequence[str | int]) -> tuple[str, int | None]:
        """The file and line a value at ``keys`` was read from."""
        key = tuple(keys)
        while key:
            if key in self.elsewhere:
                return self.elsewhere[key]
            key = key[:-1]
        return self.file, self.lines.line(list(keys))


@dataclass
class Subject:
    """One render: what rules read, and the selections made on it (cached)."""

    slug: str
    values: Mapping[str, object]
    tree: Mapping[str, bytes]
    documents: Mapping[str, RuleDocument | None]
    named: Mapping[str, Named]
    view: DeviceView | None = None
    baseline: Subject | None = None
    baseline_problem: str | None = None
    label: str = "the render"
    _services: list[facts.ServiceFacts] | None = field(default=None, repr=False)
    _volumes: list[facts.VolumeFacts] | None = field(default=None, repr=False)
    _evaluator: Evaluator | None = field(default=None, repr=False)

    @property
    def evaluator(self) -> Evaluator:
        if self._evaluator is None:
            self._evaluator = Evaluator(self.named, self)
        return self._evaluator

    def resolve(self, path: DocPath) -> tuple[DocPath, RuleDocument | None, list[Match]]:
        """``path`` with ``${VAR}`` substituted, its document, and what it reaches.

        Nothing is reached in an absent document (None); a document that
        cannot be read raises :class:`DocumentProblem`; ``UnknownVariable``
        and :class:`RuleProblem` (a selector that cannot be evaluated)
        propagate.
        """
        path = path.substitute(lambda text: substitute(text, self.values))
        document = self.documents.get(path.document)
        if document is not None and document.problem is not None:
            raise _unreadable(self.label, document)
        if document is None:
            return path, document, []
        return path, document, resolve(path, document.data, self.selections(path))

    def selections(self, path: DocPath) -> dict[str, list[str]]:
        """What each ``@name`` of ``path`` selects (service names, volume keys)."""
        out = {}
        for name in path.selectors:
            selector = self.named[name]
            out[name] = [key for key, _ in self.evaluator.select(selector.kind, Ref(name))]
        return out

    def services(self) -> Sequence[facts.ServiceFacts]:
        if self._services is None:
            self._services = self._read_services()
        return self._services

    def volumes(self) -> Sequence[facts.VolumeFacts]:
        if self._volumes is None:
            compose = self._compose()
            if compose is None:
                self._volumes = []
            else:
                model = compose.data if isinstance(compose.data, Mapping) else {}
                self._volumes = facts.compose_volumes(model, self.services(), compose.lines)
        return self._volumes

    def baseline_evaluator(self) -> Evaluator:
        if self.baseline is None:
            raise RuleProblem(
                self.baseline_problem or "there is no baseline render to compare with"
            )
        return self.baseline.evaluator

    @property
    def baseline_label(self) -> str:
        return self.baseline.label if self.baseline is not None else "the baseline"

    def _compose(self) -> RuleDocument | None:
        compose = self.documents.get("compose")
        if compose is not None and compose.problem is not None:
            raise _unreadable(self.label, compose)
        return compose

    def _read_services(self) -> list[facts.ServiceFacts]:
        compose = self._compose()
        if compose is not None:
            model = compose.data if isinstance(compose.data, Mapping) else {}
            return facts.compose_services(model, compose.file, self.tree, compose.lines, self.view)
        if self.view is not None:
            return facts.device_services(self.view)
        return []


def _unreadable(label: str, document: RuleDocument) -> DocumentProblem:
    where = "" if label == "the render" else f"{label}: "
    return DocumentProblem(f"{where}{document.problem}", document.file, document.problem_line)


def make_subject(
    slug: str,
    values: Mapping[str, object],
    tree: Mapping[str, bytes],
    docs: Documents,
    *,
    named: Mapping[str, Named],
    declared: Mapping[str, str],
    compose: ComposeResult | None,
    view: DeviceView | None,
    label: str = "the render",
) -> Subject:
    """The subject of one render, from what ``check`` already made of it.

    ``declared`` are the rules file's ``documents:``; ``compose`` the
    compose check's result for this render (None: Compose was not run).
    """
    documents = _Documents(
        {
            "compose": lambda: _compose_document(tree, docs, declared.get("compose"), compose),
            "device": lambda: None if view is None else device_document(view, tree),
            "dockerfiles": lambda: dockerfiles_document(tree),
            "wendy": lambda: None if docs.wendy is None else _parsed(docs.wendy),
        }
    )
    for name, path in declared.items():
        if name != "compose":
            documents.add(name, functools.partial(_declared, tree, path))
    return Subject(slug, values, tree, documents, named, view, label=label)


class _Documents(Mapping[str, "RuleDocument | None"]):
    """The documents of a render, each made the first time a rule reads it."""

    def __init__(self, factories: dict[str, Callable[[], RuleDocument | None]]) -> None:
        self._factories = factories
        self._made: dict[str, RuleDocument | None] = {}

    def add(self, name: str, factory: Callable[[], RuleDocument | None]) -> None:
        self._factories[name] = factory

    def __getitem__(self, name: str) -> RuleDocument | None:
        if name not in self._made:
            self._made[name] = self._factories[name]()
        return self._made[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._factories)

    def __len__(self) -> int:
        return len(self._factories)


def _declared(tree: Mapping[str, bytes], path: str) -> RuleDocument | None:
    if path not in tree:
        return None
    if PurePosixPath(path).suffix.lower() == ".json":
        return _parsed(parse_json(path, tree[path], check=CHECK))
    return _parsed(parse_yaml(path, tree[path], check=CHECK))


def _parsed(parsed: Parsed) -> RuleDocument:
    if parsed.problem is not None:
        return RuleDocument(
            parsed.path,
            None,
            parsed.lines,
            f"{parsed.path} does not parse",
            parsed.problem.line,
        )
    return RuleDocument(parsed.path, parsed.data, parsed.lines)


def _compose_document(
    tree: Mapping[str, bytes],
    docs: Documents,
    declared: str | None,
    compose: ComposeResult | None,
) -> RuleDocument | None:
    raw = docs.compose
    if declared is not None and (raw is None or raw.path != declared):
        raw = None if declared not in tree else parse_yaml(declared, tree[declared])
    if raw is None:
        return None
    if raw.problem is not None:
        return _parsed(raw)
    if compose is None:
        problem = f"the normalised model of {raw.path} was not computed (Compose did not run)"
        return RuleDocument(raw.path, None, raw.lines, problem)
    if raw.path not in compose.models:
        names = ", ".join(COMPOSE_NAMES)
        problem = f"{raw.path} is not run through docker-compose config (only {names} are)"
        return RuleDocument(raw.path, None, raw.lines, problem)
    model = compose.models[raw.path]
    if model is None:
        problem = (
            f"docker-compose config does not accept {raw.path}, so its normalised model is "
            "unknown (the compose check says why)"
        )
        # At the line of Compose's refusal, where the compose check reports it (issue 37).
        said = (f.line for f in compose.findings if f.file == raw.path and f.severity == "error")
        line = next((n for n in said if n is not None), None)
        return RuleDocument(raw.path, None, raw.lines, problem, line)
    return RuleDocument(raw.path, model, raw.lines)


def device_document(view: DeviceView, tree: Mapping[str, bytes]) -> RuleDocument:
    """The device view as a document: services keyed by name, ARG defaults added."""
    data = _plain(view)
    assert isinstance(data, dict)
    services: dict[str, object] = {}
    lines: dict[PathKey, int] = {}
    elsewhere: dict[PathKey, tuple[str, int]] = {}
    for service, raw in zip(view.services, data["services"], strict=True):
        key = ("services", service.name)
        if service.build is not None and raw["build"] is not None:
            path = service.build.dockerfile
            declared = _declarations(tree.get(path))
            raw["build"]["arg_defaults"] = {k: v for k, (v, _) in declared.args.items()}
            for name, (_, line) in declared.args.items():
                elsewhere[(*key, "build", "arg_defaults", name)] = (path, line)
            for name, line in declared.env.items():
                for part in ("values", "by_device"):
                    elsewhere[(*key, "environment", part, name)] = (path, line)
        services[service.name] = raw
        if service.line is not None:
            lines[key] = service.line
    data["services"] = services
    return RuleDocument(
        view.path_file or "(device view)", data, LineIndex(lines), None, None, elsewhere
    )


def dockerfiles_document(tree: Mapping[str, bytes]) -> RuleDocument | None:
    """Every Dockerfile of the render as a document (None: the render has none)."""
    data: dict[str, object] = {}
    elsewhere: dict[PathKey, tuple[str, int]] = {}
    for path in sorted(p for p in tree if is_dockerfile_name(PurePosixPath(p).name)):
        image = facts.build_once(tree[path], ())
        data[path] = {
            "environment": _plain(image.environment),
            "base_images": list(image.base_images),
        }
        elsewhere[(path,)] = (path, 1)
        for name, line in _declarations(tree[path]).env.items():
            for part in ("values", "by_device"):
                elsewhere[(path, "environment", part, name)] = (path, line)
    if not data:
        return None
    return RuleDocument("(dockerfiles)", data, LineIndex({}), None, None, elsewhere)


def _plain(value: object) -> object:
    """A dataclass as JSON-like data (``dataclasses.asdict`` without its deep copies:
    every pick's view is converted, and the copies were most of the cost)."""
    fields = getattr(type(value), "__dataclass_fields__", None)
    if fields is not None:
        return {name: _plain(getattr(value, name)) for name in fields}
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    if isinstance(value, dict | Mapping):
        return {key: _plain(item) for key, item in value.items()}
    return value


@dataclass
class _Declared:
    args: dict[str, tuple[str | None, int]] = field(default_factory=dict)
    env: dict[str, int] = field(default_factory=dict)


def _declarations(dockerfile: bytes | None) -> _Declared:
    """A Dockerfile's ``ARG`` defaults and the lines of its ``ENV`` names (the last wins).

    A default is as written, one pair of surrounding quotes removed; a
    later ``ARG`` without one (a global redeclared in a stage) keeps the
    earlier default.
    """
    out = _Declared()
    if dockerfile is None:
        return out
    text = dockerfile.decode("utf-8", "replace")
    parsed = parse_dockerfile(text)
    if isinstance(parsed, str):
        return out
    for ins in parsed.instructions:
        if ins.keyword == "ARG":
            for decl in arg_decls(ins):
                if decl.default is not None or decl.name not in out.args:
                    out.args[decl.name] = (_unquoted(decl.default), ins.line)
    out.env = dict(env_positions(text).in_file())
    return out


def _unquoted(text: str | None) -> str | None:
    if text is not None and len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text
