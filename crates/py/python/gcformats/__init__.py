"""Byte-exact readers and writers for Nintendo GameCube/Wii file formats.

One door for every format::

    import gcformats
    arc = gcformats.open("ObjectData/Kuribo.arc")     # through Yaz0
    print(arc.format, arc.detail, arc.members())
    table = arc["kuribo/actorinfo/initactor.bcsv"]
    print([f.name for f in table.fields], table.rows[0])

See the project's README ("Python") for a Blender add-on's view.
"""

from __future__ import annotations

import builtins
import os
from typing import Union

from ._gcformats import Field, Finding, FormatError, Opened, open
from ._gcformats import _pack
from ._mesh import Primitive, primitives

__all__ = [
    "Field",
    "Finding",
    "FormatError",
    "Opened",
    "Primitive",
    "open",
    "pack",
    "primitives",
]

def pack(
    folder: Union[str, "os.PathLike[str]"], out: str = "", **options: object
) -> bytes:
    """Packs a folder as ``gcf pack`` does and returns the archive's bytes.

    A folder ``Opened.extract`` wrote (it holds the manifest) packs back to the
    same archive, byte for byte, with the edits made to its files. A folder
    without one packs as a new archive whose root is the folder's name.
    ``out`` is the output's file name (its extension chooses the container and
    compression: ``.arc``, ``.szs``, ``.pkx``, ``.tpl``); by default the
    archive the manifest describes, else ``NAME.arc``. ``options`` are
    ``gcf pack -o`` options (``yaz0="nintendo"``, ``add=True``, ...).
    Symbolic links are refused.
    """
    folder = os.fspath(folder)
    root = os.path.basename(os.path.abspath(folder)) or "root"
    files: dict[str, bytes] = {}
    dirs: list[str] = []
    for here, subdirs, names in os.walk(folder):
        subdirs.sort()
        rel = os.path.relpath(here, folder)
        prefix = "" if rel == "." else rel.replace(os.sep, "/") + "/"
        for d in subdirs:
            if os.path.islink(os.path.join(here, d)):
                raise FormatError(f"{os.path.join(here, d)}: a symbolic link")
            dirs.append(prefix + d)
        for n in sorted(names):
            path = os.path.join(here, n)
            if os.path.islink(path):
                raise FormatError(f"{path}: a symbolic link")
            with builtins.open(path, "rb") as f:
                files[prefix + n] = f.read()
    if not out:
        out = root + ".arc"
    data, _notices = _pack(folder, root, files, dirs, out, **options)
    return data

