"""``wendy-llm plan``: what ``wendy run`` would deploy on a WendyOS device for one pick."""

from __future__ import annotations

import argparse

from wendy_llm.cli import output
from wendy_llm.cli.args import (
    add_json,
    add_no_strict,
    add_pick,
    add_template_dir,
    add_vars,
    answers,
)
from wendy_llm.device import PROFILES, profiles
from wendy_llm.device.profiles import MORE_PROFILES
from wendy_llm.render.picks import CANONICAL_APP_ID
from wendy_llm.render.template import load_template
from wendy_llm.reports.json import dumps, plan_json
from wendy_llm.reports.plan import format_plan
from wendy_llm.validate.checks.device import build_view
from wendy_llm.wendycli import REVISION

_NAMES = ", ".join(p.name for p in PROFILES)
_MORE = ", ".join(p.name for p in MORE_PROFILES)

HELP = "show what `wendy run` would deploy on a WendyOS device for a pick"
DESCRIPTION = (
    "Render a pick and show what `wendy run` deploys on a WendyOS device: each "
    "app, what it gets, what is dropped or ignored, and the findings."
)
EPILOG = f"""\
examples:
  wendy-llm plan templates/python/llm --pick laguna-s-2.1-dflash
  wendy-llm plan templates/python/llm --pick gemma4-e4b --device thor --device pi5
  wendy-llm plan templates/python/llm --var OLLAMA_MODEL=gemma4:e4b --var PORT=3000
  wendy-llm plan templates/python/llm --pick laguna-s-2.1-dflash --json | jq .view.services

The pick is rendered as `wendy init` would (--app-id, default {CANONICAL_APP_ID}; --var
overrides the pick's answers) and read as the Wendy CLI at {REVISION} reads it: the
path `wendy run` takes, then each app (on the compose path only dependencies are
created first, shown as "after"; the rest is unordered) with its image or build,
build args, argv, restart policy, ports, entitlements and the environment the
container really gets; then what the device ignores (compose environment,
healthcheck, wendy.json on the compose path, ...) and the findings.
The project directory is taken to be named after the app id.
Devices ({_NAMES}; also {_MORE}): the build args the Wendy CLI passes
differ by device (WENDY_PLATFORM nvidia-jetson on a Jetson Orin, generic
elsewhere; WENDY_JETPACK_VERSION 6.1 or L4T 38.2.1); with --device only those
profiles are evaluated, else the first ones, and values that differ are shown
per device. What a profile's device reports (its type, L4T and CUDA releases)
is assumed; the args follow the CLI's rules (docs/device-paths.md).
--json prints the document of docs/json-reports.md (version 2).
Exit status: 0 wendy run would deploy it as the render says (warnings do not
count), 1 a finding is an error (wendy run fails, or a container would run with
an ENV that contradicts compose or names a service the app does not have), 2
usage or input error (unknown pick or device, a bad --var or app id, a render
error).
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_template_dir(p)
    add_pick(p)
    p.add_argument(
        "--app-id",
        default=CANONICAL_APP_ID,
        metavar="ID",
        help=f"the app id (APP_ID) and project directory name (default: {CANONICAL_APP_ID})",
    )
    add_vars(p)
    p.add_argument(
        "--device",
        action="append",
        dest="devices",
        default=[],
        metavar="PROFILE",
        help=f"evaluate for this device profile only (repeatable; {_NAMES}, {_MORE})",
    )
    add_no_strict(p)
    add_json(p, "print JSON (version 2) instead of text")


def run(args: argparse.Namespace) -> int:
    devices = profiles(args.devices)
    template = load_template(args.template_dir)
    overrides = answers(template, args)
    tree = template.render(args.app_id, overrides, strict=not args.no_strict)
    view = build_view(tree, args.app_id, devices=devices)
    if args.json:
        document = plan_json(
            view,
            template=template.id,
            pick=args.pick,
            app_id=args.app_id,
            answers=overrides,
            devices=devices,
        )
        output.emit(dumps(document))
    else:
        colour = output.stdout_colour()
        text = format_plan(
            view,
            template=template.id,
            pick=args.pick,
            app_id=args.app_id,
            devices=devices,
            colour=colour,
        )
        output.emit(text, colour=colour)
    return 1 if view.errors else 0
