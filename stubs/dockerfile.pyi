# Type stubs for the `dockerfile` package (a compiled wrapper of BuildKit's
# Dockerfile parser, which ships none): only what wendy_llm uses.
from typing import NamedTuple

class GoIOError(OSError): ...
class GoParseError(ValueError): ...

class Heredoc(NamedTuple):
    name: str
    file_descriptor: int
    content: str

class Command(NamedTuple):
    cmd: str
    sub_cmd: str | None
    json: bool
    original: str
    start_line: int
    end_line: int
    flags: tuple[str, ...]
    value: tuple[str, ...]
    heredocs: tuple[Heredoc, ...]

def all_cmds() -> tuple[str, ...]: ...
def parse_file(filename: str) -> tuple[Command, ...]: ...
def parse_string(s: str) -> tuple[Command, ...]: ...
