"""A ``{{.NAME}}`` left in a render fails `render` when NAME is one of the pick's values."""

from __future__ import annotations

from wendy_llm.validate.checks.leftovers import unrendered_actions

VALUES = {"APP_ID": "app", "PORT": 8080.0}


def test_an_escaped_action_naming_a_value_fails_with_file_and_line() -> None:
    tree = {"README.md": b"# app\n\nOpen http://device:{{.PORT}}/ in a browser.\n"}
    (finding,) = unrendered_actions(tree, VALUES)
    assert (finding.severity, finding.check, finding.file, finding.line) == (
        "error",
        "render",
        "README.md",
        3,
    )
    assert finding.message.startswith('"{{.PORT}}" is left in the output: PORT is one of')


def test_trim_markers_and_spaces_are_actions_too() -> None:
    tree = {"a.tsx": b"const id = '{{- .APP_ID }}';\n", "b.txt": b"{{ .PORT }}\n"}
    assert [(f.file, f.line) for f in unrendered_actions(tree, VALUES)] == [
        ("a.tsx", 1),
        ("b.txt", 1),
    ]


def test_actions_naming_other_data_are_the_apps_own_templates() -> None:
    # A Go web app's html/template files, escaped on purpose in the template.
    tree = {"templates/index.html": b"<h1>{{.Title}}</h1>{{range .Items}}{{.}}{{end}}\n"}
    assert unrendered_actions(tree, VALUES) == []


def test_braces_without_an_action_are_ignored() -> None:
    tree = {"app.rs": b'println!("{{}}", x);\n', "ci.yml": b"${{ github.sha }}\n"}
    assert unrendered_actions(tree, VALUES) == []
