"""Imports one .glb with Blender's glTF importer at 60 frames per second and prints, as one JSON
line, every object's world matrix (Blender space, Z up; row-major 4×4) at each frame 0…LAST of
the animation the importer made active: {"objects": {name: [[16 floats] per frame]}}.

    python pose_nodes.py FILE.glb LAST
"""

import json
import sys

import bpy

path, last = sys.argv[1], int(sys.argv[2])
bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.fps = 60
bpy.ops.import_scene.gltf(filepath=path)
out = {"objects": {}}
for f in range(last + 1):
    scene.frame_set(f)
    for o in scene.objects:
        m = o.matrix_world
        out["objects"].setdefault(o.name, []).append([m[r][c] for r in range(4) for c in range(4)])
print(json.dumps(out))
