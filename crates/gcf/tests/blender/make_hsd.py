"""Builds the HSD / PKX Blender test models (seed 003's hard cases) with bpy, reusing make.py's
builders, and exports each as .glb into OUT_DIR beside manifest.json.

    python make_hsd.py OUT_DIR

- rig: 15 bones at 60 frames per second (HSD's rate). A body whose every vertex has the 4 nearest
  bones' weights; an eye weighted 100 % to the head, which the body's envelopes also weigh (the
  mesh's one bone is its owner and a deformer); a hat parented to the head bone (a rigid mesh
  on a joint); a wing whose bone is scaled to zero and animated to visible, its tip bone
  collapsing with it. Two actions named as PKX slots: Idle and Physical A.
- props: make.py's textured multi-material props (quads, n-gons, vertex colours), no armature.
- body: a subdivided body on 15 bones with Blender's automatic weights at 24 fps, one action
  (Wave); its "frames" are on the game's 60 fps timeline.

manifest.json: {model: {"glb", "triangles", "bones", "materials", "frames", "actions": {name:
{"heads", "tails", "rest_tails", "eye"}}}}, as make.py writes them (positions in glTF space, Y
up), one entry per action; "eye" holds the eye's deformed vertices at each of "eye_frames".
"""

import json
import os
import sys

import bpy  # noqa: I001 (bpy first: it makes bmesh and mathutils importable)
import bmesh

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make  # noqa: E402 (make.py's builders; its main() runs only as a script)

FPS = 60
LAST_FRAME = 60
# Frames at which the eye's deformed vertices are recorded.
EYE_FRAMES = list(range(0, LAST_FRAME + 1, 10))

BONES = [
    ("root", (0, 0, 0), (0, 0, 0.3), None),
    ("hips", (0, 0, 1.0), (0, 0, 1.2), "root"),
    ("spine", (0, 0, 1.2), (0, 0, 1.5), "hips"),
    ("chest", (0, 0, 1.5), (0, 0, 1.8), "spine"),
    ("head", (0, 0, 1.8), (0, 0, 2.2), "chest"),
    ("arm.L", (0.2, 0, 1.7), (0.6, 0, 1.7), "chest"),
    ("hand.L", (0.6, 0, 1.7), (0.9, 0, 1.7), "arm.L"),
    ("arm.R", (-0.2, 0, 1.7), (-0.6, 0, 1.7), "chest"),
    ("hand.R", (-0.6, 0, 1.7), (-0.9, 0, 1.7), "arm.R"),
    ("thigh.L", (0.15, 0, 1.0), (0.15, 0, 0.5), "hips"),
    ("shin.L", (0.15, 0, 0.5), (0.15, 0, 0.0), "thigh.L"),
    ("thigh.R", (-0.15, 0, 1.0), (-0.15, 0, 0.5), "hips"),
    ("shin.R", (-0.15, 0, 0.5), (-0.15, 0, 0.0), "thigh.R"),
    ("wing", (0, 0.25, 1.6), (0, 0.6, 1.9), "chest"),
    ("wingtip", (0, 0.6, 1.9), (0, 1.0, 2.0), "wing"),
]


def reset():
    make.reset()
    scene = bpy.context.scene
    scene.render.fps = FPS
    scene.frame_start = 0
    scene.frame_end = LAST_FRAME


def skinned(obj, arm):
    obj.parent = arm
    obj.modifiers.new("Armature", "ARMATURE").object = arm


def deformed(obj, frames):
    """obj's vertices as its modifiers deform them, in glTF space, at each of frames."""
    scene = bpy.context.scene
    out = []
    for f in frames:
        scene.frame_set(f)
        ev = obj.evaluated_get(bpy.context.evaluated_depsgraph_get())
        out.append([make.gltf(ev.matrix_world @ v.co) for v in ev.data.vertices])
    scene.frame_set(0)
    return out


def make_rig(out_dir):
    reset()
    arm = make.armature("rig", BONES)
    body_bones = [b for b in BONES if b[0] not in ("root", "wing", "wingtip")]
    bm = bmesh.new()
    make.tube(bm, 9, 10, 0.22, 0.95, 2.2)
    make.tube(bm, 9, 8, 0.08, 0.2, 0.95, axis=(1, 0, 0), origin=(0, 0, 1.7))
    make.tube(bm, 9, 8, 0.08, 0.2, 0.95, axis=(-1, 0, 0), origin=(0, 0, 1.7))
    make.tube(bm, 9, 8, 0.09, 0.0, 1.0, origin=(0.15, 0, 0))
    make.tube(bm, 9, 8, 0.09, 0.0, 1.0, origin=(-0.15, 0, 0))
    body = make.mesh_object("body", bm)
    body.data.materials.append(make.material("skin", (0.9, 0.7, 0.6, 1.0)))
    make.weigh_nearest(body, body_bones)
    skinned(body, arm)

    bm = bmesh.new()
    bmesh.ops.create_uvsphere(bm, u_segments=10, v_segments=6, radius=0.05)
    bmesh.ops.translate(bm, verts=bm.verts, vec=(0.08, -0.2, 2.05))
    eye = make.mesh_object("eye", bm)
    eye.data.materials.append(make.material("eye_mat", (0.05, 0.05, 0.05, 1.0)))
    eye.vertex_groups.new(name="head").add([v.index for v in eye.data.vertices], 1.0, "REPLACE")
    skinned(eye, arm)

    bm = bmesh.new()
    bmesh.ops.create_cone(bm, segments=8, radius1=0.25, radius2=0.0, depth=0.3, cap_ends=True)
    bmesh.ops.translate(bm, verts=bm.verts, vec=(0, 0, 2.35))
    hat = make.mesh_object("hat", bm)
    hat.data.materials.append(make.material("hat_mat", (0.2, 0.2, 0.8, 1.0)))
    bpy.context.view_layer.update()
    world = hat.matrix_world.copy()
    hat.parent = arm
    hat.parent_type = "BONE"
    hat.parent_bone = "head"
    bpy.context.view_layer.update()
    hat.matrix_world = world

    bm = bmesh.new()
    make.tube(bm, 7, 6, 0.05, 0.0, 0.8, axis=(0, 1, 0.5), origin=(0, 0.25, 1.6))
    wing = make.mesh_object("wing", bm)
    wing.data.materials.append(make.material("wing_mat", (0.9, 0.9, 0.2, 1.0)))
    make.weigh_nearest(wing, [b for b in BONES if b[0] in ("wing", "wingtip")], count=2)
    skinned(wing, arm)

    hidden = (0.0, 0.0, 0.0)
    idle = make.animate(
        arm,
        "Idle",
        {
            "hips": [(0, (0, 0, 0), (0, 0, 0)), (30, (0, 0, 5), (0, 0.05, 0)), (60, (0, 0, 0), (0, 0, 0))],
            "spine": [(0, (0, 0, 0), None), (30, (8, 0, 0), None), (60, (0, 0, 0), None)],
            "head": [(0, (0, 0, 0), None), (20, (0, 0, -20), None), (60, (10, 0, 15), None)],
            "wing": [
                (0, (0, 0, 0), None, hidden),
                (20, (0, 0, 0), None, hidden),
                (40, (0, 0, 20), None, (1, 1, 1)),
                (60, (0, 0, 30), None, (1, 1, 1)),
            ],
            "wingtip": [(0, (0, 0, 0), None), (60, (25, 0, 0), None)],
        },
    )
    attack = make.animate(
        arm,
        "Physical A",
        {
            "root": [(0, (0, 0, 0), (0, 0, 0)), (30, (0, 0, 0), (0, 0.3, 0.2)), (60, (0, 0, 0), (0, 0, 0))],
            "arm.L": [(0, (0, 0, 0), None), (15, (0, -60, 0), None), (60, (20, -30, 10), None)],
            "hand.L": [(0, (0, 0, 0), None), (40, (0, 0, 45), None), (60, (0, 0, 0), None)],
            "thigh.R": [(0, (0, 0, 0), None), (30, (-40, 0, 0), None), (60, (10, 0, 0), None)],
            "shin.R": [(0, (0, 0, 0), None), (30, (50, 0, 0), None), (60, (0, 0, 0), None)],
            "wing": [(0, (0, 0, 0), None, (1, 1, 1)), (30, (0, 0, 0), None, (0.5, 1.5, 1)), (60, (0, 0, 0), None, (1, 1, 1))],
        },
    )
    actions = {}
    for action in (idle, attack):
        arm.animation_data.action = action
        if not arm.animation_data.action_slot and action.slots:
            arm.animation_data.action_slot = action.slots[0]
        actions[action.name] = make.pose(arm)
        actions[action.name]["eye"] = deformed(eye, EYE_FRAMES)
    arm.animation_data.action = idle
    path = os.path.join(out_dir, "rig.glb")
    bpy.ops.export_scene.gltf(
        filepath=path,
        export_format="GLB",
        export_animations=True,
        export_animation_mode="ACTIONS",
    )
    return {
        "glb": "rig.glb",
        "triangles": make.triangles(),
        "bones": [b.name for b in arm.data.bones],
        "materials": len([m for m in bpy.data.materials if m.users]),
        "frames": list(range(0, LAST_FRAME + 1)),
        "eye_frames": EYE_FRAMES,
        "actions": actions,
    }


BODY_FPS = 24
BODY_LAST = 24


def make_body(out_dir):
    """A subdivided body on 15 bones with Blender's automatic weights (every vertex its own
    weight set: far more palettes than the game's PObj limit unless rounded), at Blender's
    default 24 fps, so half of its keys fall between the game's frames."""
    make.reset()
    scene = bpy.context.scene
    scene.render.fps = BODY_FPS
    scene.frame_start = 0
    scene.frame_end = BODY_LAST
    # The rig's trunk, limbs of its own.
    bones = [b for b in BONES if b[0] in ("root", "hips", "spine", "chest", "head")]
    for side, x in (("L", 1), ("R", -1)):
        bones += [
            (f"arm.{side}", (0.2 * x, 0, 1.7), (0.5 * x, 0, 1.7), "chest"),
            (f"fore.{side}", (0.5 * x, 0, 1.7), (0.85 * x, 0, 1.7), f"arm.{side}"),
            (f"hand.{side}", (0.85 * x, 0, 1.7), (1.0 * x, 0, 1.7), f"fore.{side}"),
            (f"thigh.{side}", (0.12 * x, 0, 1.0), (0.12 * x, 0, 0.5), "hips"),
            (f"shin.{side}", (0.12 * x, 0, 0.5), (0.12 * x, 0, 0.08), f"thigh.{side}"),
        ]
    arm = make.armature("body_rig", bones)
    bm = bmesh.new()
    make.tube(bm, 30, 20, 0.2, 0.0, 2.3)
    make.tube(bm, 24, 12, 0.06, 0.1, 1.05, axis=(1, 0, 0), origin=(0, 0, 1.7))
    make.tube(bm, 24, 12, 0.06, 0.1, 1.05, axis=(-1, 0, 0), origin=(0, 0, 1.7))
    body = make.mesh_object("body", bm)
    body.data.materials.append(make.material("body_mat", (0.8, 0.6, 0.5, 1.0)))
    body.modifiers.new("sub", "SUBSURF").levels = 1
    bpy.context.view_layer.objects.active = body
    bpy.ops.object.modifier_apply(modifier="sub")
    body.select_set(True)
    arm.select_set(True)
    bpy.context.view_layer.objects.active = arm
    bpy.ops.object.parent_set(type="ARMATURE_AUTO")
    action = make.animate(
        arm,
        "Wave",
        {
            "arm.L": [(0, (0, 0, 0), None), (7, (0, 0, 50), None), (24, (0, -20, 10), None)],
            "fore.L": [(0, (0, 0, 0), None), (13, (0, 0, 60), None), (24, (0, 0, 0), None)],
            "spine": [(0, (0, 0, 0), None), (11, (15, 0, 5), None), (24, (0, 0, 0), None)],
            "thigh.R": [(0, (0, 0, 0), None), (17, (-30, 0, 0), None), (24, (0, 0, 0), None)],
        },
    )
    arm.animation_data.action = action
    if not arm.animation_data.action_slot and action.slots:
        arm.animation_data.action_slot = action.slots[0]
    pose = make.pose(arm)
    bpy.ops.export_scene.gltf(
        filepath=os.path.join(out_dir, "body.glb"),
        export_format="GLB",
        export_animations=True,
    )
    return {
        "glb": "body.glb",
        "triangles": make.triangles(),
        "bones": [b.name for b in arm.data.bones],
        "materials": 1,
        # Blender's frames on the game's 60 fps timeline (every other one a half frame).
        "frames": [f * 60 / BODY_FPS for f in range(0, BODY_LAST + 1)],
        "actions": {"Wave": pose},
    }


def main():
    out_dir = sys.argv[1]
    manifest = {
        "rig": make_rig(out_dir),
        "props": make.make_props(out_dir),
        "body": make_body(out_dir),
    }
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)


main()
