"""What an executable's header says: its format, its architecture, and for
Mach-O the oldest macOS it runs on (the wheel's platform tag follows it)."""

from __future__ import annotations

import struct

ELF_MAGIC = b"\x7fELF"
MACHO_64_MAGIC = b"\xcf\xfa\xed\xfe"  # MH_MAGIC_64, little-endian
#: ELF e_machine values (offset 18, little-endian).
ELF_MACHINES = {62: "amd64", 183: "arm64"}
#: Mach-O cputype values (CPU_ARCH_ABI64 | CPU_TYPE_X86 / CPU_TYPE_ARM).
MACHO_CPUS = {0x01000007: "amd64", 0x0100000C: "arm64"}
_LC_VERSION_MIN_MACOSX = 0x24
_LC_BUILD_VERSION = 0x32
_MACHO_HEADER_SIZE = 32


def goos_goarch(data: bytes) -> tuple[str, str]:
    """(GOOS, GOARCH) of an executable's bytes, from its header."""
    if data.startswith(ELF_MAGIC):
        (machine,) = struct.unpack_from("<H", data, 18)
        return "linux", ELF_MACHINES.get(machine, f"elf-machine-{machine}")
    if data.startswith(MACHO_64_MAGIC):
        (cpu,) = struct.unpack_from("<I", data, 4)
        return "darwin", MACHO_CPUS.get(cpu, f"macho-cpu-{cpu:#x}")
    raise ValueError(f"neither ELF nor 64-bit Mach-O (starts {data[:4]!r})")


def macos_minimum(data: bytes) -> tuple[int, int]:
    """The oldest macOS a Mach-O binary runs on (its LC_BUILD_VERSION or
    LC_VERSION_MIN_MACOSX load command), as (major, minor)."""
    (ncmds,) = struct.unpack_from("<I", data, 16)
    offset = _MACHO_HEADER_SIZE
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, offset)
        if cmd == _LC_BUILD_VERSION:
            (packed,) = struct.unpack_from("<I", data, offset + 12)  # platform, then minos
            return packed >> 16, (packed >> 8) & 0xFF
        if cmd == _LC_VERSION_MIN_MACOSX:
            (packed,) = struct.unpack_from("<I", data, offset + 8)
            return packed >> 16, (packed >> 8) & 0xFF
        offset += size
    raise ValueError("no macOS version in the Mach-O load commands")
