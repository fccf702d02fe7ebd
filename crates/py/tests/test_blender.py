"""The wheel inside Blender (the `bpy` module, `pip install bpy`): what an add-on does with a
real model. Skipped where bpy is not installed."""

from __future__ import annotations

import pytest

import gcformats
from conftest import real_files

bpy = pytest.importorskip("bpy")


def test_a_real_model_imports_into_blender_as_glb(tmp_path):
    models = [p for p in real_files() if p.suffix in (".bmd", ".bdl")]
    if not models:
        pytest.skip("no real models")
    done = 0
    for p in models:
        bpy.ops.wm.read_factory_settings(use_empty=True)
        glb = tmp_path / (p.stem + ".glb")
        glb.write_bytes(gcformats.open(p).to_glb())
        assert bpy.ops.import_scene.gltf(filepath=str(glb)) == {"FINISHED"}, p
        meshes = [o for o in bpy.context.scene.objects if o.type == "MESH"]
        assert meshes, p
        assert sum(len(o.data.vertices) for o in meshes) > 0, p
        done += 1
    assert done == len(models)


def test_an_add_on_reads_vertex_data_into_a_mesh():
    models = [p for p in real_files() if p.suffix in (".bmd", ".bdl")]
    if not models:
        pytest.skip("no real models")
    prim = gcformats.open(models[0]).primitives()[0]
    mesh = bpy.data.meshes.new("gc")
    faces = [tuple(int(i) for i in prim.indices[k : k + 3]) for k in range(0, len(prim.indices), 3)]
    mesh.from_pydata([tuple(map(float, v)) for v in prim.positions], [], faces)
    assert len(mesh.vertices) == len(prim.positions)
    assert len(mesh.polygons) == len(faces)
