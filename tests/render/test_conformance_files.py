"""Conformance: which files `wendy init` writes, where and how (spec section 3),
and how templates are loaded; the atomic tree writer is in test_tree_write.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from _template_helpers import make_template, write_files

from wendy_llm.errors import RenderError, TemplateExecError, TemplateLoadError, TemplateParseError
from wendy_llm.render.files.tree import (
    RENDERED_BASENAMES,
    RENDERED_EXTENSIONS,
    is_rendered,
    output_path,
)
from wendy_llm.render.template import load_template, template_from_files
from wendy_llm.repo.layout import discover_templates

BODY = "{{.APP_ID}}"

# Spec section 3, verbatim.
SPEC_EXTENSIONS = [
    ".json", ".toml", ".yaml", ".yml", ".md", ".txt", ".html", ".css", ".js", ".ts", ".py",
    ".rs", ".swift", ".go", ".cpp", ".c", ".h", ".hpp", ".cmake", ".sh", ".bash", ".zsh",
    ".dockerfile", ".gitignore", ".env", ".cfg", ".ini", ".xml", ".svg", ".lock", ".mojo",
]  # fmt: skip
SPEC_BASENAMES = [
    "Dockerfile", "Makefile", "CMakeLists.txt", "Package.swift", "Cargo.toml", "Cargo.lock",
    ".swift-version", ".gitignore",
]  # fmt: skip


def test_the_lists_are_exactly_the_specs() -> None:
    assert set(SPEC_EXTENSIONS) == RENDERED_EXTENSIONS
    assert set(SPEC_BASENAMES) == RENDERED_BASENAMES


@pytest.mark.parametrize("ext", SPEC_EXTENSIONS)
def test_every_listed_extension_is_rendered_in_any_case(tmp_path: Path, ext: str) -> None:
    files = {f"a{ext}": BODY, f"B{ext.upper()}": BODY, f"dir/c.d{ext}": BODY}
    t = make_template(tmp_path, files=files)
    tree = t.render("my-app")
    for name in files:
        assert tree.files[name].rendered
        assert tree[name] == b"my-app"


@pytest.mark.parametrize("base", SPEC_BASENAMES)
def test_every_listed_base_name_is_rendered(tmp_path: Path, base: str) -> None:
    t = make_template(tmp_path, files={base: BODY, f"sub/{base}": BODY})
    tree = t.render("my-app")
    assert tree[base] == b"my-app" and tree[f"sub/{base}"] == b"my-app"


@pytest.mark.parametrize(
    "name",
    [
        "App.tsx", "App.jsx", ".dockerignore", "Dockerfile.cuda", "dockerfile", "makefile",
        "DOCKERFILE", "script", "notes.", "x.yaml.bak", "logo.png", "config.jsonc", "run.ps1",
        "Gemfile", ".swift-version.bak", "CMakeLists.TXT.orig",
    ],
)  # fmt: skip
def test_other_files_are_copied_byte_for_byte(tmp_path: Path, name: str) -> None:
    content = b"{{.APP_ID}} {{ broken \xff\xfe\x00 binary"
    t = make_template(tmp_path, files={name: content})
    item = t.render("my-app").files[name]
    assert not item.rendered
    assert item.data == content
    assert item.source == name


def test_extension_rules_follow_go_filepath_ext() -> None:
    assert is_rendered(".gitignore") and is_rendered("sub/.env")
    assert is_rendered("CMakeLists.txt") and is_rendered("a.b.YAML")
    assert not is_rendered("yaml") and not is_rendered("dir.yaml/file")
    assert is_rendered("dir.x/file.md")


def test_root_manifests_are_excluded_but_nested_ones_are_rendered(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        phases=[],
        files={
            "sub/template.json": '{"id": "{{.APP_ID}}"}',
            "sub/template.schema.json": '{"x": "{{.APP_ID}}"}',
        },
    )
    tree = t.render("my-app")
    assert set(tree) == {"sub/template.json", "sub/template.schema.json"}
    assert tree["sub/template.json"] == b'{"id": "my-app"}'


def test_symlinks_and_special_files_are_skipped(tmp_path: Path) -> None:
    root = write_files(
        tmp_path / "demo",
        {"template.json": "{}", "real.txt": "real", "dir/inner.txt": "inner"},
    )
    (root / "link.txt").symlink_to(root / "real.txt")
    (root / "linkdir").symlink_to(root / "dir")
    (root / "dangling.txt").symlink_to(root / "missing")
    os.mkfifo(root / "pipe.txt")
    tree = load_template(root).render("my-app")
    assert set(tree) == {"real.txt", "dir/inner.txt"}


def test_template_name_components_are_replaced_by_the_app_id(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        name="simple-api",
        files={
            "Sources/simple-api/main.swift": "x",
            "docs/simple-api": "file named like the template",
            "simple-api/simple-api/a.txt": "nested",
            "simple-api-extra/b.txt": "partial match",
            "Simple-API/c.txt": "other case",
            "x/simple-api.txt": "with an extension",
        },
    )
    tree = t.render("my-app")
    assert set(tree) == {
        "Sources/my-app/main.swift",
        "docs/my-app",
        "my-app/my-app/a.txt",
        "simple-api-extra/b.txt",
        "Simple-API/c.txt",
        "x/simple-api.txt",
    }
    assert tree.files["Sources/my-app/main.swift"].source == "Sources/simple-api/main.swift"


def test_paths_that_escape_after_renaming_are_dropped() -> None:
    assert output_path("demo/a.txt", "demo", "..") is None
    assert output_path("demo/a.txt", "demo", "../../etc") is None
    assert output_path("demo/a.txt", "demo", "/etc") is None
    assert output_path("demo", "demo", ".") is None
    assert output_path("demo/a.txt", "demo", ".") == "a.txt"
    assert output_path("demo/a.txt", "demo", "x/../y") == "y/a.txt"
    assert output_path("demo/a.txt", "demo", "a/b") == "a/b/a.txt"


def test_non_strict_app_id_that_escapes_drops_those_files(tmp_path: Path) -> None:
    t = make_template(tmp_path, files={"demo/a.txt": "a", "b.txt": "{{.APP_ID}}"})
    tree = t.render("..", strict=False)
    assert dict(tree) == {"b.txt": b".."}


def test_template_from_files_ignores_escaping_keys() -> None:
    t = template_from_files(
        "python/demo",
        {
            "template.json": b"{}",
            "../evil.txt": b"x",
            "/abs.txt": b"x",
            "./ok.txt": b"{{.APP_ID}}",
            "demo/in.txt": b"y",
        },
    )
    assert (t.id, t.name, t.root) == ("python/demo", "demo", None)
    assert dict(t.render("my-app")) == {"my-app/in.txt": b"y", "ok.txt": b"my-app"}


def test_walk_order_decides_collisions_later_file_wins(tmp_path: Path) -> None:
    # filepath.Walk order: "a/" before "a.txt" ('/' sorts after '.' but a
    # directory's entries come right after the directory itself).
    t = make_template(
        tmp_path,
        files={"a/f.txt": "from a", "a.txt": "a", "demo/f.txt": "from demo", "x/f.txt": "from x"},
    )
    # demo/ is visited after a/: its renamed file wins.
    tree = t.render("a", strict=False)
    assert tree["a/f.txt"] == b"from demo"
    assert [item.source for item in tree.files.values()] == ["a.txt", "demo/f.txt", "x/f.txt"]
    # x/ is visited after demo/: the template's own x/f.txt wins.
    assert t.render("x", strict=False)["x/f.txt"] == b"from x"


def test_render_error_texts_are_the_clis(tmp_path: Path) -> None:
    t = make_template(
        tmp_path / "a", files={"a.yaml": "ok", "b.yaml": "x\n{{if .APP_ID}}", "c.yaml": "{{.NOPE}}"}
    )
    with pytest.raises(RenderError) as info:
        t.render("my-app")
    error = info.value
    assert str(error) == "template demo: parsing b.yaml: template: b.yaml:2: unexpected EOF"
    assert error.describe() == "parsing b.yaml: template: b.yaml:2: unexpected EOF"
    assert isinstance(error, TemplateParseError)
    assert (error.template, error.file, error.line) == ("demo", "b.yaml", 2)
    t = make_template(tmp_path / "b", files={"c.yaml": "line\n  {{.NOPE}}"})
    with pytest.raises(RenderError) as info:
        t.render("my-app")
    error = info.value
    assert str(error) == (
        'template demo: rendering c.yaml: template: c.yaml:2:4: executing "c.yaml" at <.NOPE>: '
        'map has no entry for key "NOPE"'
    )
    assert isinstance(error, TemplateExecError)
    assert (error.line, error.column) == (2, 4)


def test_missing_key_fails_even_inside_if(tmp_path: Path) -> None:
    t = make_template(tmp_path, files={"a.txt": "{{if .MISSING}}x{{end}}"})
    with pytest.raises(RenderError, match='map has no entry for key "MISSING"'):
        t.render("my-app")


def test_empty_directories_are_not_output(tmp_path: Path) -> None:
    t = make_template(tmp_path, files={"a.txt": "a"})
    (tmp_path / "demo" / "empty" / "deeper").mkdir(parents=True)
    reloaded = load_template(tmp_path / "demo")
    out = reloaded.render("my-app").write(tmp_path / "out")
    assert sorted(p.name for p in out.iterdir()) == ["a.txt"]
    assert t.render("my-app").keys() == reloaded.render("my-app").keys()


# --- loading -------------------------------------------------------------------------


def test_load_errors_name_the_path(tmp_path: Path) -> None:
    with pytest.raises(TemplateLoadError, match="not a directory"):
        load_template(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(TemplateLoadError, match=r"no template\.json: not a template"):
        load_template(tmp_path / "empty")
    with pytest.raises(TemplateLoadError, match=r"no template\.json"):
        template_from_files("x", {"a.txt": b""})


def test_discover_templates_finds_language_name_dirs(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "python/llm/template.json": "{}",
            "python/api/template.json": "{}",
            "swift/app/template.json": "{}",
            "python/notes/readme.md": "not a template",
            ".git/x/template.json": "{}",
            "meta.json": "{}",
        },
    )
    found = discover_templates(tmp_path)
    assert [(t.id, t.name) for t in found] == [
        ("python/api", "api"),
        ("python/llm", "llm"),
        ("swift/app", "app"),
    ]


def test_load_template_alone_uses_the_dir_name_as_id(tmp_path: Path) -> None:
    t = make_template(tmp_path, name="llm")
    assert (t.id, t.name, t.root) == ("llm", "llm", (tmp_path / "llm").resolve())
