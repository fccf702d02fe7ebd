"""Builds the Blender test models with bpy (deterministic: no randomness, fixed sizes) and exports
each as .glb into OUT_DIR, beside manifest.json describing what Blender holds.

    python make.py OUT_DIR

manifest.json: {model: {"glb": file, "triangles": Blender's triangle count after triangulation,
"bones": [names], "materials": count, "action": name or null, "frames": [frame numbers],
"heads"/"tails": {bone: [[x, y, z] per frame]}, "rest_tails": {bone: [x, y, z]}}}: bone head and
tail positions in glTF's space (Y up: x, z, -y of Blender's world position), frame by frame from
frame 0 at the scene's frame rate (FPS); the pose keys only for models with an action.
"""

import json
import math
import os
import sys

import bpy  # noqa: I001 (bpy first: it makes bmesh and mathutils importable)
import bmesh
from mathutils import Vector

FPS = 30
LAST_FRAME = 30


def reset():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = FPS
    scene.frame_start = 0
    scene.frame_end = LAST_FRAME


def mesh_object(name, bm):
    me = bpy.data.meshes.new(name)
    bm.to_mesh(me)
    bm.free()
    obj = bpy.data.objects.new(name, me)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def tube(bm, rings, segments, radius, z0, z1, axis=(0.0, 0.0, 1.0), origin=(0.0, 0.0, 0.0)):
    """A capped cylinder of `rings` loops from z0 to z1 along `axis` (quads, n-gon caps)."""
    a = Vector(axis).normalized()
    u = a.orthogonal().normalized()
    v = a.cross(u)
    o = Vector(origin)
    loops = []
    for r in range(rings):
        z = z0 + (z1 - z0) * r / (rings - 1)
        loop = []
        for s in range(segments):
            t = 2 * math.pi * s / segments
            p = o + a * z + u * (radius * math.cos(t)) + v * (radius * math.sin(t))
            loop.append(bm.verts.new(p))
        loops.append(loop)
    for lo, hi in zip(loops, loops[1:]):
        for s in range(segments):
            n = (s + 1) % segments
            bm.faces.new((lo[s], lo[n], hi[n], hi[s]))
    bm.faces.new(list(reversed(loops[0])))
    bm.faces.new(loops[-1])


def armature(name, bones):
    """An armature object of `bones`: [(name, head, tail, parent name or None)]."""
    data = bpy.data.armatures.new(name)
    obj = bpy.data.objects.new(name, data)
    bpy.context.scene.collection.objects.link(obj)
    bpy.context.view_layer.objects.active = obj
    bpy.ops.object.mode_set(mode="EDIT")
    for bname, head, tail, parent in bones:
        b = data.edit_bones.new(bname)
        b.head, b.tail = head, tail
        if parent:
            b.parent = data.edit_bones[parent]
            b.use_connect = False
    bpy.ops.object.mode_set(mode="OBJECT")
    return obj


def animate(arm, name, keys):
    """An action `name` on `arm`: keys = {bone: [(frame, euler XYZ degrees, location or None[,
    scale])]}, Bezier interpolation (Blender's default)."""
    arm.animation_data_create()
    action = bpy.data.actions.new(name)
    arm.animation_data.action = action
    for bone, frames in keys.items():
        pb = arm.pose.bones[bone]
        pb.rotation_mode = "XYZ"
        for frame, euler, loc, *scale in frames:
            pb.rotation_euler = [math.radians(d) for d in euler]
            pb.keyframe_insert("rotation_euler", frame=frame)
            if loc is not None:
                pb.location = loc
                pb.keyframe_insert("location", frame=frame)
            if scale:
                pb.scale = scale[0]
                pb.keyframe_insert("scale", frame=frame)
    for bone in arm.pose.bones:
        bone.rotation_euler = (0, 0, 0)
        bone.location = (0, 0, 0)
        bone.scale = (1, 1, 1)
    return action


def triangles():
    """Triangles of every mesh as Blender triangulates them (modifiers applied)."""
    deps = bpy.context.evaluated_depsgraph_get()
    n = 0
    for obj in bpy.context.scene.objects:
        if obj.type == "MESH":
            me = obj.evaluated_get(deps).to_mesh()
            me.calc_loop_triangles()
            n += len(me.loop_triangles)
            obj.evaluated_get(deps).to_mesh_clear()
    return n


def gltf(p):
    """A Blender world position in glTF's space (Y up)."""
    return [p.x, p.z, -p.y]


def pose(arm):
    """Each bone's head and tail per frame, and its tail at rest, in glTF space: the heads test
    every joint's parents, the tails the joint's own rotation too."""
    scene = bpy.context.scene
    heads = {b.name: [] for b in arm.pose.bones}
    tails = {b.name: [] for b in arm.pose.bones}
    for f in range(scene.frame_start, scene.frame_end + 1):
        scene.frame_set(f)
        for pb in arm.pose.bones:
            heads[pb.name].append(gltf(arm.matrix_world @ pb.head))
            tails[pb.name].append(gltf(arm.matrix_world @ pb.tail))
    scene.frame_set(0)
    rest = {b.name: gltf(arm.matrix_world @ b.tail_local) for b in arm.data.bones}
    return {"heads": heads, "tails": tails, "rest_tails": rest}


def export(out_dir, model, arm=None, action=None):
    path = os.path.join(out_dir, model + ".glb")
    bpy.ops.export_scene.gltf(
        filepath=path,
        export_format="GLB",
        export_animations=action is not None,
        export_vertex_color="ACTIVE",
    )
    entry = {
        "glb": model + ".glb",
        "triangles": triangles(),
        "bones": [b.name for b in arm.data.bones] if arm else [],
        "materials": len([m for m in bpy.data.materials if m.users]),
        "action": action.name if action else None,
        "frames": list(range(0, LAST_FRAME + 1)),
    }
    if arm and action:
        entry.update(pose(arm))
    return entry


def material(name, color, backface=True):
    m = bpy.data.materials.new(name)
    m.use_nodes = True
    bsdf = m.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = color
    m.use_backface_culling = backface
    return m


def make_tube(out_dir):
    """Cylinder with loop cuts, 3-bone chain with automatic weights, a bending action."""
    reset()
    bm = bmesh.new()
    tube(bm, rings=13, segments=12, radius=0.3, z0=0.0, z1=3.0)
    obj = mesh_object("tube", bm)
    obj.data.materials.append(material("tube_mat", (0.8, 0.3, 0.2, 1.0)))
    arm = armature(
        "rig",
        [
            ("bone0", (0, 0, 0), (0, 0, 1), None),
            ("bone1", (0, 0, 1), (0, 0, 2), "bone0"),
            ("bone2", (0, 0, 2), (0, 0, 3), "bone1"),
        ],
    )
    bpy.ops.object.select_all(action="DESELECT")
    obj.select_set(True)
    arm.select_set(True)
    bpy.context.view_layer.objects.active = arm
    bpy.ops.object.parent_set(type="ARMATURE_AUTO")
    action = animate(
        arm,
        "bend",
        {
            "bone0": [(0, (0, 0, 0), None), (30, (0, 0, 20), None)],
            "bone1": [(0, (0, 0, 0), None), (15, (35, 0, 0), None), (30, (60, 10, 0), None)],
            "bone2": [(0, (0, 0, 0), None), (10, (0, 25, 0), None), (30, (45, 0, 30), None)],
        },
    )
    return export(out_dir, "tube", arm, action)


def make_props(out_dir):
    """Two objects, three materials (textured, alpha-blended, double-sided), quads, n-gons and
    vertex colours."""
    reset()
    img = bpy.data.images.new("checker", 16, 16, alpha=False)
    px = []
    for y in range(16):
        for x in range(16):
            on = (x // 4 + y // 4) % 2
            px += [0.9, 0.9, 0.2, 1.0] if on else [0.1, 0.2, 0.7, 1.0]
    img.pixels = px
    img.filepath_raw = os.path.join(out_dir, "checker.png")
    img.file_format = "PNG"
    img.save()
    textured = material("textured", (1, 1, 1, 1))
    tex = textured.node_tree.nodes.new("ShaderNodeTexImage")
    tex.image = img
    bsdf = textured.node_tree.nodes["Principled BSDF"]
    textured.node_tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    glass = material("glass", (0.3, 0.8, 1.0, 1.0))
    glass.node_tree.nodes["Principled BSDF"].inputs["Alpha"].default_value = 0.4
    glass.surface_render_method = "BLENDED"
    cloth = material("cloth", (0.2, 0.9, 0.3, 1.0), backface=False)

    # A crate: a box of quads plus a hexagonal lid (n-gon), textured sides, cloth lid.
    bm = bmesh.new()
    s = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    lo = [bm.verts.new((x, y, 0)) for x, y in s]
    hi = [bm.verts.new((x, y, 1.5)) for x, y in s]
    for i in range(4):
        n = (i + 1) % 4
        bm.faces.new((lo[i], lo[n], hi[n], hi[i]))
    bm.faces.new(list(reversed(lo)))
    bm.faces.new(hi)
    hexa = [
        bm.verts.new((0.8 * math.cos(a), 0.8 * math.sin(a), 1.8))
        for a in (2 * math.pi * k / 6 for k in range(6))
    ]
    lid = bm.faces.new(hexa)
    lid.material_index = 1
    uv = bm.loops.layers.uv.new("UVMap")
    for f in bm.faces:
        for loop in f.loops:
            co = loop.vert.co
            loop[uv].uv = (co.x * 0.5 + 0.5 + co.z * 0.25, co.y * 0.5 + 0.5)
    crate = mesh_object("crate", bm)
    crate.data.materials.append(textured)
    crate.data.materials.append(cloth)

    # A lamp: an octagonal prism (n-gon caps), glass sides, cloth caps; beside the crate.
    bm = bmesh.new()
    tube(bm, rings=3, segments=8, radius=0.5, z0=0.0, z1=2.0, origin=(3, 0, 0))
    for f in bm.faces:
        f.material_index = 1 if len(f.verts) > 4 else 0
    lamp = mesh_object("lamp", bm)
    lamp.data.materials.append(glass)
    lamp.data.materials.append(cloth)

    for obj in (crate, lamp):
        col = obj.data.color_attributes.new("Color", "BYTE_COLOR", "CORNER")
        for i, loop in enumerate(obj.data.loops):
            co = obj.data.vertices[loop.vertex_index].co
            col.data[i].color = (
                (co.x + 1) / 5 % 1.0,
                (co.y + 1) / 2 % 1.0,
                (co.z + 0.5) / 3 % 1.0,
                1.0,
            )
        obj.data.color_attributes.active_color = col
    return export(out_dir, "props")


def make_sphere(out_dir, name, segments, rings, smooth):
    """A UV sphere; flat shading splits every face's corners into their own glTF vertices."""
    reset()
    bm = bmesh.new()
    bmesh.ops.create_uvsphere(bm, u_segments=segments, v_segments=rings, radius=2.0, calc_uvs=True)
    obj = mesh_object(name, bm)
    for p in obj.data.polygons:
        p.use_smooth = smooth
    obj.data.materials.append(material(name + "_mat", (0.7, 0.7, 0.7, 1.0)))
    entry = export(out_dir, name)
    entry["positions"] = len(obj.data.vertices)
    return entry


def weigh_nearest(obj, bones, count=4):
    """Weights every vertex of `obj` to the `count` bones nearest to it (inverse square of the
    distance to each bone's segment, normalised): `bones` as `armature` takes them."""
    groups = {name: obj.vertex_groups.new(name=name) for name, *_ in bones}

    def seg_dist(p, a, b):
        a, b = Vector(a), Vector(b)
        t = max(0.0, min(1.0, (p - a).dot(b - a) / (b - a).length_squared))
        return (p - (a + (b - a) * t)).length

    for v in obj.data.vertices:
        d = sorted((seg_dist(v.co, h, t), n) for n, h, t, _ in bones)[:count]
        w = [1.0 / (x + 0.05) ** 2 for x, _ in d]
        total = sum(w)
        for (_, n), wi in zip(d, w):
            groups[n].add([v.index], wi / total, "REPLACE")


def make_character(out_dir):
    """12 bones; a body whose every vertex has the 4 nearest bones' weights, and an eye weighted
    100 % to the head."""
    reset()
    bones = [
        ("hips", (0, 0, 1.0), (0, 0, 1.2), None),
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
    ]
    arm = armature("character", bones)
    bm = bmesh.new()
    tube(bm, 9, 10, 0.22, 0.95, 2.2)
    tube(bm, 9, 8, 0.08, 0.2, 0.95, axis=(1, 0, 0), origin=(0, 0, 1.7))
    tube(bm, 9, 8, 0.08, 0.2, 0.95, axis=(-1, 0, 0), origin=(0, 0, 1.7))
    tube(bm, 9, 8, 0.09, 0.0, 1.0, origin=(0.15, 0, 0))
    tube(bm, 9, 8, 0.09, 0.0, 1.0, origin=(-0.15, 0, 0))
    body = mesh_object("body", bm)
    body.data.materials.append(material("skin", (0.9, 0.7, 0.6, 1.0)))
    weigh_nearest(body, bones)

    bm = bmesh.new()
    bmesh.ops.create_uvsphere(bm, u_segments=10, v_segments=6, radius=0.05)
    bmesh.ops.translate(bm, verts=bm.verts, vec=(0.08, -0.2, 2.05))
    eye = mesh_object("eye", bm)
    eye.data.materials.append(material("eye_mat", (0.05, 0.05, 0.05, 1.0)))
    eye.vertex_groups.new(name="head").add([v.index for v in eye.data.vertices], 1.0, "REPLACE")

    for obj in (body, eye):
        obj.parent = arm
        obj.modifiers.new("Armature", "ARMATURE").object = arm
    action = animate(
        arm,
        "wave",
        {
            "hips": [(0, (0, 0, 0), (0, 0, 0)), (15, (0, 0, 15), (0, 0.2, -0.1)), (30, (0, 0, 0), (0, 0.4, 0))],
            "spine": [(0, (0, 0, 0), None), (30, (10, 0, 0), None)],
            "head": [(0, (0, 0, 0), None), (10, (0, 0, -30), None), (30, (15, 0, 20), None)],
            "arm.L": [(0, (0, 0, 0), None), (12, (0, -60, 0), None), (30, (20, -30, 10), None)],
            "hand.L": [(0, (0, 0, 0), None), (20, (0, 0, 45), None), (30, (0, 0, 0), None)],
            "thigh.R": [(0, (0, 0, 0), None), (15, (-40, 0, 0), None), (30, (10, 0, 0), None)],
            "shin.R": [(0, (0, 0, 0), None), (15, (50, 0, 0), None), (30, (0, 0, 0), None)],
        },
    )
    return export(out_dir, "character", arm, action)


def main():
    out_dir = sys.argv[1]
    manifest = {
        "tube": make_tube(out_dir),
        "props": make_props(out_dir),
        # 192 × 96 flat-shaded: > 65,536 glTF vertices, < 65,535 distinct positions and normals.
        "sphere": make_sphere(out_dir, "sphere", 192, 96, smooth=False),
        # Smooth, 256 × 256: 65,282 distinct positions, just under J3D's 65,535 (16-bit indices, 0xFFFF skips).
        "sphere_near": make_sphere(out_dir, "sphere_near", 256, 256, smooth=True),
        # Smooth, 256 × 257: 65,538 distinct positions, just past it.
        "sphere_dense": make_sphere(out_dir, "sphere_dense", 256, 257, smooth=True),
        "character": make_character(out_dir),
    }
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)


if __name__ == "__main__":
    main()
