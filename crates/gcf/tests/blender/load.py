"""Loads each .glb with Blender's glTF importer, exports it again as FILE.blender.glb (what a
modder's edited model looks like; custom properties on) and as FILE.posed.glb (also with "Use
Rest Position Armature" off: bones as posed, which keeps a bone's rest scale, imported as pose
scale) and prints one JSON line per file:
{"file", "ok", "error", "bones", "meshes", "materials", "actions", "exported", "posed",
"extension"};
"extension" maps each material to its first image node's extension (REPEAT, EXTEND, MIRROR…),
how Blender samples its texture outside 0…1.

    python load.py FILE.glb...
"""

import json
import sys

import bpy


def load(path):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    out = {"file": path, "ok": True, "error": None}
    try:
        res = bpy.ops.import_scene.gltf(filepath=path)
        out["ok"] = "FINISHED" in res
    except Exception as e:  # the importer raises on files it cannot read
        out["ok"] = False
        out["error"] = str(e)
    objs = bpy.context.scene.objects
    out["bones"] = sum(len(o.data.bones) for o in objs if o.type == "ARMATURE")
    # Not the bone-shape Icosphere the importer adds to its glTF_not_exported collection.
    out["meshes"] = sum(
        1
        for o in objs
        if o.type == "MESH" and all(c.name != "glTF_not_exported" for c in o.users_collection)
    )
    out["materials"] = len(bpy.data.materials)
    out["extension"] = {
        m.name: next(n.extension for n in m.node_tree.nodes if n.type == "TEX_IMAGE")
        for m in bpy.data.materials
        if m.node_tree and any(n.type == "TEX_IMAGE" for n in m.node_tree.nodes)
    }
    out["actions"] = len(bpy.data.actions)
    out["exported"] = None
    out["posed"] = None
    if out["ok"]:
        again = path + ".blender.glb"
        bpy.ops.export_scene.gltf(filepath=again, export_format="GLB", export_extras=True)
        out["exported"] = again
        posed = path + ".posed.glb"
        bpy.ops.export_scene.gltf(
            filepath=posed,
            export_format="GLB",
            export_extras=True,
            export_rest_position_armature=False,
        )
        out["posed"] = posed
    return out


for path in sys.argv[1:]:
    print(json.dumps(load(path)), flush=True)
