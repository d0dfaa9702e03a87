"""wendy-llm: render Wendy app templates exactly as `wendy init` does.

The public API is re-exported here and nowhere else. ``import wendy_llm``
imports nothing else: each name is loaded on first use (PEP 562), so the
command line pays only for what a subcommand runs.
"""

from __future__ import annotations

import importlib
import types

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from wendy_llm.arguments import ArgumentTypeError as ArgumentTypeError
    from wendy_llm.arguments import ArgumentValueError as ArgumentValueError
    from wendy_llm.codes.model import Severity as Severity
    from wendy_llm.compare.diff import FileChange as FileChange
    from wendy_llm.compare.diff import PickComparison as PickComparison
    from wendy_llm.compare.diff import Policy as Policy
    from wendy_llm.compare.diff import PolicyResult as PolicyResult
    from wendy_llm.compare.diff import Side as Side
    from wendy_llm.compare.diff import TemplateDiff as TemplateDiff
    from wendy_llm.compare.diff import diff_template as diff_template
    from wendy_llm.compare.diff import evaluate_policy as evaluate_policy
    from wendy_llm.compare.model import ComparedWith as ComparedWith
    from wendy_llm.compare.model import DiffGroup as DiffGroup
    from wendy_llm.compare.model import FileStatus as FileStatus
    from wendy_llm.compare.model import PickStatus as PickStatus
    from wendy_llm.compare.model import ShownDiffs as ShownDiffs
    from wendy_llm.compare.model import SideKind as SideKind
    from wendy_llm.compare.pairing import Sentinels as Sentinels
    from wendy_llm.compare.scope import FileScope as FileScope
    from wendy_llm.compare.sides import Key as Key
    from wendy_llm.engine.client import Renderer as Renderer
    from wendy_llm.engine.client import RenderJob as RenderJob
    from wendy_llm.engine.client import shared_renderer as shared_renderer
    from wendy_llm.engine.helper.announce import HelperBuild as HelperBuild
    from wendy_llm.engine.helper.announce import HelperBuildListener as HelperBuildListener
    from wendy_llm.engine.helper.announce import on_helper_build as on_helper_build
    from wendy_llm.errors import AppIdError as AppIdError
    from wendy_llm.errors import CheckSelectionError as CheckSelectionError
    from wendy_llm.errors import DataTypeError as DataTypeError
    from wendy_llm.errors import DiffError as DiffError
    from wendy_llm.errors import EngineError as EngineError
    from wendy_llm.errors import GitError as GitError
    from wendy_llm.errors import GoldenError as GoldenError
    from wendy_llm.errors import GoldenManifestError as GoldenManifestError
    from wendy_llm.errors import GoldenUpdateRefused as GoldenUpdateRefused
    from wendy_llm.errors import LayoutError as LayoutError
    from wendy_llm.errors import ManifestError as ManifestError
    from wendy_llm.errors import MissingValueError as MissingValueError
    from wendy_llm.errors import NotAGitRepository as NotAGitRepository
    from wendy_llm.errors import NoTemplateAtRevision as NoTemplateAtRevision
    from wendy_llm.errors import OutputDirNotEmpty as OutputDirNotEmpty
    from wendy_llm.errors import OutputDirRefused as OutputDirRefused
    from wendy_llm.errors import OutputTooLarge as OutputTooLarge
    from wendy_llm.errors import PathCollisionError as PathCollisionError
    from wendy_llm.errors import PickError as PickError
    from wendy_llm.errors import RenderError as RenderError
    from wendy_llm.errors import RenderExecError as RenderExecError
    from wendy_llm.errors import RenderParseError as RenderParseError
    from wendy_llm.errors import RenderTimeout as RenderTimeout
    from wendy_llm.errors import RulesError as RulesError
    from wendy_llm.errors import SettingsError as SettingsError
    from wendy_llm.errors import SuppressionsError as SuppressionsError
    from wendy_llm.errors import TemplateError as TemplateError
    from wendy_llm.errors import TemplateExecError as TemplateExecError
    from wendy_llm.errors import TemplateLoadError as TemplateLoadError
    from wendy_llm.errors import TemplateParseError as TemplateParseError
    from wendy_llm.errors import ToolchainError as ToolchainError
    from wendy_llm.errors import TreeWriteError as TreeWriteError
    from wendy_llm.errors import UnknownRevision as UnknownRevision
    from wendy_llm.errors import ValidatorToolError as ValidatorToolError
    from wendy_llm.errors import ValuesError as ValuesError
    from wendy_llm.errors import WendyLlmError as WendyLlmError
    from wendy_llm.golden import GoldenCheck as GoldenCheck
    from wendy_llm.golden import GoldenProblem as GoldenProblem
    from wendy_llm.golden import GoldenUpdate as GoldenUpdate
    from wendy_llm.golden import TemplateUpdate as TemplateUpdate
    from wendy_llm.golden import check_golden as check_golden
    from wendy_llm.golden import update_golden as update_golden
    from wendy_llm.golden.check import CheckedTemplate as CheckedTemplate
    from wendy_llm.golden.fixture_files import ProblemKind as ProblemKind
    from wendy_llm.record import Record as Record
    from wendy_llm.render.files.readdir import SkippedEntry as SkippedEntry
    from wendy_llm.render.files.source import OverrideValue as OverrideValue
    from wendy_llm.render.files.tree import RenderedFile as RenderedFile
    from wendy_llm.render.files.tree import RenderedTree as RenderedTree
    from wendy_llm.render.lints.checks import LintWarning as LintWarning
    from wendy_llm.render.overrides import UnknownVariableWarning as UnknownVariableWarning
    from wendy_llm.render.picks import CANONICAL_APP_ID as CANONICAL_APP_ID
    from wendy_llm.render.picks import Pick as Pick
    from wendy_llm.render.template import Template as Template
    from wendy_llm.render.template import template_from_files as template_from_files
    from wendy_llm.render.variants import Inputs as Inputs
    from wendy_llm.repo.config import Keys as Keys
    from wendy_llm.repo.config import Settings as Settings
    from wendy_llm.repo.config import load_settings as load_settings
    from wendy_llm.repo.gitsource import Revision as Revision
    from wendy_llm.repo.gitsource import template_at_revision as template_at_revision
    from wendy_llm.repo.globs import Glob as Glob
    from wendy_llm.repo.layout import Layout as Layout
    from wendy_llm.repo.layout import TemplateDir as TemplateDir
    from wendy_llm.repo.layout import discover_templates as discover_templates
    from wendy_llm.repo.layout import find_layout as find_layout
    from wendy_llm.repo.loading import load_template as load_template
    from wendy_llm.repo.pinned import Pinned as Pinned
    from wendy_llm.repo.rule_selection import RuleSelection as RuleSelection
    from wendy_llm.repo.rule_selection import Selector as Selector
    from wendy_llm.repo.selection import TemplateFailure as TemplateFailure
    from wendy_llm.repo.selection import TemplatesOrRoot as TemplatesOrRoot
    from wendy_llm.validate.findings import CheckResult as CheckResult
    from wendy_llm.validate.findings import Finding as Finding
    from wendy_llm.validate.findings import Report as Report
    from wendy_llm.validate.findings import Status as Status
    from wendy_llm.validate.gate import run_check as run_check
    from wendy_llm.validate.tools.cache import ResultCache as ResultCache
    from wendy_llm.validate.tools.pool import ToolRunner as ToolRunner

    __version__: str

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "AppIdError": "wendy_llm.errors",
    "ArgumentTypeError": "wendy_llm.arguments",
    "ArgumentValueError": "wendy_llm.arguments",
    "CANONICAL_APP_ID": "wendy_llm.render.picks",
    "CheckResult": "wendy_llm.validate.findings",
    "CheckSelectionError": "wendy_llm.errors",
    "CheckedTemplate": "wendy_llm.golden.check",
    "ComparedWith": "wendy_llm.compare.model",
    "DataTypeError": "wendy_llm.errors",
    "DiffError": "wendy_llm.errors",
    "DiffGroup": "wendy_llm.compare.model",
    "EngineError": "wendy_llm.errors",
    "FileChange": "wendy_llm.compare.diff",
    "FileScope": "wendy_llm.compare.scope",
    "FileStatus": "wendy_llm.compare.model",
    "Finding": "wendy_llm.validate.findings",
    "GitError": "wendy_llm.errors",
    "Glob": "wendy_llm.repo.globs",
    "GoldenCheck": "wendy_llm.golden",
    "GoldenError": "wendy_llm.errors",
    "GoldenManifestError": "wendy_llm.errors",
    "GoldenProblem": "wendy_llm.golden",
    "GoldenUpdate": "wendy_llm.golden",
    "GoldenUpdateRefused": "wendy_llm.errors",
    "HelperBuild": "wendy_llm.engine.helper.announce",
    "HelperBuildListener": "wendy_llm.engine.helper.announce",
    "Inputs": "wendy_llm.render.variants",
    "Key": "wendy_llm.compare.sides",
    "Keys": "wendy_llm.repo.config",
    "Layout": "wendy_llm.repo.layout",
    "LayoutError": "wendy_llm.errors",
    "Pinned": "wendy_llm.repo.pinned",
    "LintWarning": "wendy_llm.render.lints.checks",
    "ManifestError": "wendy_llm.errors",
    "MissingValueError": "wendy_llm.errors",
    "NoTemplateAtRevision": "wendy_llm.errors",
    "NotAGitRepository": "wendy_llm.errors",
    "OutputDirNotEmpty": "wendy_llm.errors",
    "OutputDirRefused": "wendy_llm.errors",
    "OutputTooLarge": "wendy_llm.errors",
    "OverrideValue": "wendy_llm.render.files.source",
    "PathCollisionError": "wendy_llm.errors",
    "Pick": "wendy_llm.render.picks",
    "PickComparison": "wendy_llm.compare.diff",
    "PickError": "wendy_llm.errors",
    "PickStatus": "wendy_llm.compare.model",
    "Policy": "wendy_llm.compare.diff",
    "PolicyResult": "wendy_llm.compare.diff",
    "ProblemKind": "wendy_llm.golden.fixture_files",
    "Record": "wendy_llm.record",
    "RenderError": "wendy_llm.errors",
    "RenderExecError": "wendy_llm.errors",
    "RenderJob": "wendy_llm.engine.client",
    "RenderParseError": "wendy_llm.errors",
    "RenderTimeout": "wendy_llm.errors",
    "RenderedFile": "wendy_llm.render.files.tree",
    "RenderedTree": "wendy_llm.render.files.tree",
    "Renderer": "wendy_llm.engine.client",
    "Report": "wendy_llm.validate.findings",
    "ResultCache": "wendy_llm.validate.tools.cache",
    "Revision": "wendy_llm.repo.gitsource",
    "RuleSelection": "wendy_llm.repo.rule_selection",
    "RulesError": "wendy_llm.errors",
    "Selector": "wendy_llm.repo.rule_selection",
    "Sentinels": "wendy_llm.compare.pairing",
    "Settings": "wendy_llm.repo.config",
    "SettingsError": "wendy_llm.errors",
    "Severity": "wendy_llm.codes.model",
    "ShownDiffs": "wendy_llm.compare.model",
    "Side": "wendy_llm.compare.diff",
    "SideKind": "wendy_llm.compare.model",
    "SkippedEntry": "wendy_llm.render.files.readdir",
    "Status": "wendy_llm.validate.findings",
    "SuppressionsError": "wendy_llm.errors",
    "Template": "wendy_llm.render.template",
    "TemplateDiff": "wendy_llm.compare.diff",
    "TemplateDir": "wendy_llm.repo.layout",
    "TemplateError": "wendy_llm.errors",
    "TemplateExecError": "wendy_llm.errors",
    "TemplateFailure": "wendy_llm.repo.selection",
    "TemplateLoadError": "wendy_llm.errors",
    "TemplateParseError": "wendy_llm.errors",
    "TemplateUpdate": "wendy_llm.golden",
    "TemplatesOrRoot": "wendy_llm.repo.selection",
    "ToolRunner": "wendy_llm.validate.tools.pool",
    "ToolchainError": "wendy_llm.errors",
    "TreeWriteError": "wendy_llm.errors",
    "UnknownRevision": "wendy_llm.errors",
    "UnknownVariableWarning": "wendy_llm.render.overrides",
    "ValidatorToolError": "wendy_llm.errors",
    "ValuesError": "wendy_llm.errors",
    "WendyLlmError": "wendy_llm.errors",
    "check_golden": "wendy_llm.golden",
    "diff_template": "wendy_llm.compare.diff",
    "discover_templates": "wendy_llm.repo.layout",
    "evaluate_policy": "wendy_llm.compare.diff",
    "find_layout": "wendy_llm.repo.layout",
    "load_settings": "wendy_llm.repo.config",
    "load_template": "wendy_llm.repo.loading",
    "on_helper_build": "wendy_llm.engine.helper.announce",
    "run_check": "wendy_llm.validate.gate",
    "shared_renderer": "wendy_llm.engine.client",
    "template_at_revision": "wendy_llm.repo.gitsource",
    "template_from_files": "wendy_llm.render.template",
    "update_golden": "wendy_llm.golden",
}

__all__ = sorted(_EXPORTS)


if not TYPE_CHECKING:  # hidden from type checkers, so a misspelt name stays an error

    def __getattr__(name: str) -> object:
        """Import a public name's module on first use (PEP 562)."""
        if name == "__version__":
            value: object = _version()
        else:
            module = _EXPORTS.get(name)
            if module is None:
                raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
            value = getattr(importlib.import_module(module), name)
            if isinstance(value, types.FunctionType):
                # lazy: inspect and typing, only once a public function is used.
                from wendy_llm.arguments import checked

                # It checks its arguments' types: every failure of a public
                # call is a WendyLlmError (docs/library.md, Errors).
                value = checked(value)
        globals()[name] = value  # the next access does not come here
        return value


def _version() -> str:
    # lazy: only __version__ needs it (the revision stamped at build time).
    from wendy_llm.revision import package_version

    return package_version()


def __dir__() -> list[str]:
    """The public names and the module's dunders: no helper of this module."""
    dunders = {name for name in globals() if name.startswith("__")}
    return sorted({*dunders, "__version__", *_EXPORTS})
