"""Type stubs of the extension module (crates/py/src/lib.rs)."""

import os
from typing import Any, Optional, Union

from ._mesh import Primitive

_Source = Union[bytes, bytearray, str, "os.PathLike[str]"]

class FormatError(ValueError):
    """A file that does not read as its format, or an edit it refuses."""

    offset: Optional[int]
    """File offset of the problem, None when it has none."""
    breadcrumb: list[str]
    """The structures being read, outermost first."""

class Finding:
    """One validator finding."""

    severity: str
    rule: str
    offset: Optional[int]
    message: str

class Field:
    """One column of a BCSV table."""

    hash: int
    name: str
    type: str
    mask: int
    shift: int
    offset: int

class Opened:
    """A file opened through the registry (any format, through Yaz0/Yay0)."""

    @property
    def format(self) -> str: ...
    @property
    def detail(self) -> Optional[str]: ...
    @property
    def name(self) -> str: ...
    def to_bytes(self) -> bytes: ...
    def check(self) -> list[Finding]: ...
    def info(self) -> dict[str, Any]: ...
    def convert(self, ext: str, **options: object) -> Union[bytes, dict[str, bytes]]: ...
    def to_glb(self) -> bytes: ...
    def primitives(self) -> list[Primitive]: ...
    def members(self) -> list[str]: ...
    def __getitem__(self, key: Union[str, tuple[int, str]]) -> Any: ...
    def __setitem__(self, key: Union[str, tuple[int, str]], value: Any) -> None: ...
    @property
    def fields(self) -> list[Field]: ...
    @property
    def rows(self) -> list[list[Union[int, float, str]]]: ...
    def extract(self, dir: Union[str, "os.PathLike[str]"]) -> list[str]: ...

def open(source: _Source, name: Optional[str] = None) -> Opened: ...
def _pack(
    label: str,
    root: str,
    files: dict[str, bytes],
    dirs: list[str],
    out: str,
    **options: object,
) -> tuple[bytes, list[str]]: ...
