"""Vertex data of a model's glTF export, for tools that build meshes themselves.

``Opened.mesh()`` exports the model to glb through the library and reads its
primitives here: NumPy arrays when NumPy is installed, memoryviews (buffer
protocol) without it.
"""

from __future__ import annotations

import json
import struct
from typing import Any, Optional

_COMPONENTS = {5120: "b", 5121: "B", 5122: "h", 5123: "H", 5125: "I", 5126: "f"}
_WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}


class Primitive:
    """One drawn part of a mesh: ``positions`` (N x 3 float32), ``normals``
    (N x 3, or None), ``uvs`` (N x 2, or None) and ``indices`` (triangle
    list), as NumPy arrays or memoryviews."""

    __slots__ = ("name", "positions", "normals", "uvs", "indices")

    def __init__(self, name: str, positions: Any, normals: Any, uvs: Any, indices: Any):
        self.name = name
        self.positions = positions
        self.normals = normals
        self.uvs = uvs
        self.indices = indices

    def __repr__(self) -> str:
        return f"<Primitive {self.name!r}: {len(self.positions)} vertices>"


def _accessor(doc: dict, binary: bytes, index: Optional[int]) -> Any:
    if index is None:
        return None
    acc = doc["accessors"][index]
    code = _COMPONENTS[acc["componentType"]]
    width = _WIDTH[acc["type"]]
    size = struct.calcsize(code) * width
    count = acc["count"]
    view = doc["bufferViews"][acc["bufferView"]]
    start = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
    stride = view.get("byteStride", size)
    if stride == size:
        raw = binary[start : start + size * count]
    else:
        raw = b"".join(binary[start + i * stride : start + i * stride + size] for i in range(count))
    shape = [count] if width == 1 else [count, width]
    try:
        import numpy

        return numpy.frombuffer(raw, dtype="<" + code).reshape(shape).copy()
    except ImportError:
        return memoryview(raw).cast(code, shape)


def primitives(glb: bytes) -> list:
    """Every primitive of every mesh of a binary glTF file, in file order."""
    magic, _version, _length = struct.unpack_from("<4sII", glb, 0)
    if magic != b"glTF":
        raise ValueError("not a binary glTF file")
    json_len, _ = struct.unpack_from("<II", glb, 12)
    doc = json.loads(glb[20 : 20 + json_len])
    binary = b""
    at = 20 + json_len
    if at + 8 <= len(glb):
        bin_len, _ = struct.unpack_from("<II", glb, at)
        binary = glb[at + 8 : at + 8 + bin_len]
    out = []
    for mesh in doc.get("meshes", []):
        for i, prim in enumerate(mesh.get("primitives", [])):
            attrs = prim.get("attributes", {})
            out.append(
                Primitive(
                    f"{mesh.get('name', 'mesh')}.{i}",
                    _accessor(doc, binary, attrs.get("POSITION")),
                    _accessor(doc, binary, attrs.get("NORMAL")),
                    _accessor(doc, binary, attrs.get("TEXCOORD_0")),
                    _accessor(doc, binary, prim.get("indices")),
                )
            )
    return out
