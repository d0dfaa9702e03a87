"""The realistic templates repository (``tests/_realrepo``) stays valid.

Every pick of every template renders through the real engine as ``wendy
init`` reads it; every ``wendy.json`` and the ``meta.json`` catalogue pass
the CLI's rules (``_realrepo.cli_oracle``, written from the spec); scripts
pass ``bash -n``; the compose file passes ``docker-compose config``; the
shapes issue 13 lists are all there; and each injected defect is real.
Issue 13's own "Done when" is ``test_realrepo.py``.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from _cli_helpers import cli_env
from _realrepo import DEFECTS, META_FILE, Defect, RepoFixture, build_repository
from _realrepo import spec as shapes
from _realrepo.builder import NON_TEMPLATE_DIRS
from _realrepo.cli_oracle import (
    KNOWN_QUESTION_TYPES,
    as_cli_reads,
    catalog_errors,
    read_template_files,
    wendy_json_errors,
)

from wendy_llm import template_from_files
from wendy_llm.errors import ValuesError, cli_text
from wendy_llm.render.files.tree import RenderedTree
from wendy_llm.render.template import Template
from wendy_llm.validate.checks.shell import is_shell_script
from wendy_llm.validate.tools.programs import find_tool

APP_ID = "my-app"


def cli_template(fixture: RepoFixture, template_id: str) -> Template:
    """The template as ``wendy init`` reads it (unlisted question types are inputs)."""
    files = as_cli_reads(read_template_files(fixture.template_dir(template_id)))
    return template_from_files(template_id, files)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> RepoFixture:
    """One built repository, shared by the tests that only read it."""
    return build_repository(tmp_path_factory.mktemp("realrepo") / "templates-repo")


@pytest.fixture(scope="module")
def renders(repo: RepoFixture) -> dict[str, dict[str, RenderedTree]]:
    """Template id -> pick slug -> render (app id ``my-app``, sample values where needed)."""
    out: dict[str, dict[str, RenderedTree]] = {}
    for template_id in repo.template_ids:
        template = cli_template(repo, template_id)
        samples = repo.spec(template_id).sample_values
        out[template_id] = {
            pick.slug: template.render(APP_ID, {**samples, **pick.answers})
            for pick in template.picks()
        }
    return out


def every_render(
    renders: Mapping[str, Mapping[str, RenderedTree]],
) -> Iterator[tuple[str, str, RenderedTree]]:
    for template_id, picks in renders.items():
        for slug, tree in picks.items():
            yield template_id, slug, tree


# --- the fixture itself ------------------------------------------------------------------


def test_the_repository_has_the_shapes_of_a_real_one(repo: RepoFixture) -> None:
    assert len(repo.templates) >= 12
    assert len(repo.languages) >= 4
    used = {shape for spec in repo.templates for shape in spec.shapes}
    assert used == shapes.ALL_SHAPES, f"shapes no template has: {shapes.ALL_SHAPES - used}"
    for template_id in repo.template_ids:
        assert (repo.root / template_id / "template.json").is_file()
    for name in (META_FILE, "README.md", *NON_TEMPLATE_DIRS, ".git"):
        assert (repo.root / name).exists(), name
    for folder in NON_TEMPLATE_DIRS:
        assert not list((repo.root / folder).rglob("template.json")), f"{folder}/ is a template"
    status = subprocess.run(
        ["git", "-C", str(repo.root), "status", "--porcelain"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert status.stdout == "", "everything is committed, as in a clone"


def test_every_pick_of_every_template_renders(
    repo: RepoFixture, renders: Mapping[str, Mapping[str, RenderedTree]]
) -> None:
    assert set(renders) == set(repo.template_ids)
    for template_id, slug, tree in every_render(renders):
        assert "wendy.json" in tree, f"{template_id} {slug}"
        assert "template.json" not in tree
    assert sum(len(picks) for picks in renders.values()) > len(renders), "some templates branch"


def test_a_directory_named_like_the_template_is_renamed_to_the_app_id(
    repo: RepoFixture, renders: Mapping[str, Mapping[str, RenderedTree]]
) -> None:
    for template_id in repo.with_shape(shapes.PATH_RENAMED):
        name = repo.spec(template_id).name
        for tree in renders[template_id].values():
            assert any(path.startswith(f"Sources/{APP_ID}/") for path in tree)
            assert not any(f"/{name}/" in f"/{path}" for path in tree)
            assert f'path: "Sources/{APP_ID}"' in tree["Package.swift"].decode()


def test_a_value_without_default_is_refused_without_a_var(repo: RepoFixture) -> None:
    needing = repo.with_shape(shapes.NEEDS_VALUE)
    assert set(needing) == set(repo.sample_values)
    for template_id in needing:
        template = cli_template(repo, template_id)
        for variable in repo.sample_values[template_id]:
            with pytest.raises(ValuesError) as refused:
                template.values(APP_ID)
            assert f"--var {variable}=" in cli_text(refused.value)  # the CLI's advice
        assert template.values(APP_ID, repo.sample_values[template_id])


def test_every_wendy_json_is_valid_for_the_cli(
    repo: RepoFixture, renders: Mapping[str, Mapping[str, RenderedTree]]
) -> None:
    for template_id, slug, tree in every_render(renders):
        data = json.loads(tree["wendy.json"])
        where = f"{template_id} {slug}"
        assert wendy_json_errors(data) == [], where
        assert data["appId"] == APP_ID, where
        spec = repo.spec(template_id)
        has_compose = "docker-compose.yml" in tree
        assert has_compose == (shapes.COMPOSE in spec.shapes), where
        if shapes.SINGLE_CONTAINER in spec.shapes:
            assert "Dockerfile" in tree, where
            assert isinstance(data["readiness"]["tcpSocket"]["port"], int), where
        if shapes.MULTI_SERVICE in spec.shapes:
            services = data["services"]
            assert len(services) >= 2 and any("dependsOn" in s for s in services.values())
        if shapes.SWIFT_PROJECT in spec.shapes:
            assert data["language"] == "swift" and data["xcode"] == {"scheme": APP_ID}, where
            assert all(isinstance(arg, str) for arg in data["run"]["args"]), where
        if shapes.WENDY_LITE in spec.shapes:
            assert data["platform"] == "wendy-lite", where
        if shapes.DARWIN in spec.shapes:
            assert data["platform"] == "darwin", where
    hooks = [
        tree for _, _, tree in every_render(renders) if "hooks" in json.loads(tree["wendy.json"])
    ]
    assert hooks, "some apps open a page after start"


def test_meta_json_catalogues_every_template(
    repo: RepoFixture, renders: Mapping[str, Mapping[str, RenderedTree]]
) -> None:
    meta = json.loads((repo.root / META_FILE).read_text(encoding="utf-8"))
    platforms = {
        template_id: json.loads(next(iter(picks.values()))["wendy.json"])["platform"]
        for template_id, picks in renders.items()
    }
    assert catalog_errors(repo.root, meta, platforms) == []
    multi_language = [e for e in meta["templates"] if len(e.get("languages", [])) > 1]
    assert multi_language, "one name exists in several languages, as in real catalogues"


def test_rendered_json_files_decode_except_the_binary_blob(
    repo: RepoFixture, renders: Mapping[str, Mapping[str, RenderedTree]]
) -> None:
    binary = 0
    for template_id, slug, tree in every_render(renders):
        for path, data in tree.items():
            if not path.endswith(".json"):
                continue
            if b"\x00" in data:
                assert shapes.BINARY_JSON in repo.spec(template_id).shapes
                binary += 1
                continue
            try:
                json.loads(data)
            except ValueError as exc:
                pytest.fail(f"{template_id} {slug} {path}: {exc}")
    assert binary >= 1


def test_the_binary_json_is_not_text_and_renders_unchanged(
    repo: RepoFixture, renders: Mapping[str, Mapping[str, RenderedTree]]
) -> None:
    for template_id in repo.with_shape(shapes.BINARY_JSON):
        source = read_template_files(repo.template_dir(template_id))
        blobs = [p for p, d in source.items() if p.endswith(".json") and b"\x00" in d]
        assert blobs, template_id
        for path in blobs:
            with pytest.raises(UnicodeDecodeError):
                source[path].decode("utf-8")
            for tree in renders[template_id].values():
                assert tree.files[path].rendered, "rendered because of its extension"
                assert tree[path] == source[path]


def test_shell_scripts_parse_with_bash(
    renders: Mapping[str, Mapping[str, RenderedTree]], tmp_path: Path
) -> None:
    scripts = {
        (template_id, path): data
        for template_id, _, tree in every_render(renders)
        for path, data in tree.items()
        if is_shell_script(path, data)
    }
    assert len({path for _, path in scripts}) >= 2
    for index, ((template_id, path), data) in enumerate(scripts.items()):
        script = tmp_path / f"{index}.sh"
        script.write_bytes(data)
        proc = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
        assert proc.returncode == 0, f"{template_id}/{path}: {proc.stderr}"


def test_compose_files_pass_docker_compose_config(
    repo: RepoFixture, renders: Mapping[str, Mapping[str, RenderedTree]], tmp_path: Path
) -> None:
    compose = find_tool("docker-compose")
    templates = repo.with_shape(shapes.COMPOSE)
    assert templates
    for template_id in templates:
        for slug, tree in renders[template_id].items():
            out = tree.write(tmp_path / template_id.replace("/", "-") / slug)
            proc = subprocess.run(
                [str(compose), "-f", "docker-compose.yml", "config", "-q"],
                cwd=out,
                capture_output=True,
                text=True,
                env={**cli_env(), "COMPOSE_PROJECT_NAME": APP_ID},
            )
            assert proc.returncode == 0, f"{template_id} {slug}: {proc.stderr}"


def test_the_npm_idiom_copies_a_lock_file_that_does_not_exist(
    repo: RepoFixture, renders: Mapping[str, Mapping[str, RenderedTree]]
) -> None:
    idiom = "COPY package.json package-lock.json* ./"
    for template_id in repo.with_shape(shapes.NPM_LOCK_GLOB):
        for tree in renders[template_id].values():
            dockerfiles = [p for p in tree if p.endswith("Dockerfile")]
            assert any(idiom in tree[p].decode().splitlines() for p in dockerfiles)
            assert not any(p.endswith("package-lock.json") for p in tree)


def test_no_render_leaves_a_template_action(
    repo: RepoFixture, renders: Mapping[str, Mapping[str, RenderedTree]]
) -> None:
    for template_id, slug, tree in every_render(renders):
        for path, rendered_file in tree.files.items():
            if rendered_file.rendered:
                assert b"{{." not in rendered_file.data, f"{template_id} {slug} {path}"
    for template_id in repo.with_shape(shapes.ESCAPED_BRACES):
        tree = next(iter(renders[template_id].values()))
        assert any(f.rendered and b"{{" in f.data for f in tree.files.values()), template_id
    for template_id in repo.with_shape(shapes.COPIED_BRACES):
        tree = next(iter(renders[template_id].values()))
        assert any(not f.rendered and b"{{" in f.data for f in tree.files.values()), template_id


def test_text_questions_have_a_type_the_cli_does_not_list(repo: RepoFixture) -> None:
    for template_id in repo.with_shape(shapes.TEXT_QUESTION):
        picker = json.loads((repo.template_dir(template_id) / "template.schema.json").read_text())
        types = {q["type"] for phase in picker["phases"] for q in phase["questions"]}
        assert types - KNOWN_QUESTION_TYPES, template_id


@pytest.mark.parametrize("defect", DEFECTS, ids=lambda d: d.name)
def test_each_injected_defect_is_real(defect: Defect, tmp_path: Path) -> None:
    fixture = build_repository(tmp_path / "repo", git=False)
    expected = defect.inject(fixture)
    if expected.file == META_FILE:
        meta = json.loads((fixture.root / META_FILE).read_text(encoding="utf-8"))
        errors = catalog_errors(fixture.root, meta, {})
        assert [e for e in errors if expected.template in e and "not listed" in e]
        return
    template = cli_template(fixture, expected.template)
    tree = template.render(APP_ID, fixture.spec(expected.template).sample_values)
    assert expected.line is not None and expected.evidence is not None
    line = tree[expected.file].decode().split("\n")[expected.line - 1]
    assert expected.evidence in line
    if expected.file == "wendy.json":
        errors = wendy_json_errors(json.loads(tree["wendy.json"]))
        assert any(expected.phrase in e for e in errors), errors
    if expected.file == "Dockerfile":
        assert expected.phrase not in tree, "the copied file is in no render"
