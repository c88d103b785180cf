#!/usr/bin/env python3
"""same3mf.py PLATE.3mf PIECE-1.stl ... : an independent check that the 3MF
holds one object per STL, in order, with exactly the STL's triangles.

Reads the 3MF with Python's zipfile and ElementTree (nothing of cubegen's),
the binary STLs with struct, and compares each object's triangles, as
vertex coordinate triples rounded to float32 and in their winding order
(rotated to start at the smallest vertex), with the STL's facets as a
sorted list. Also checks unit="millimeter", the object names piece-K,
and that every object's edges pair up (closed). Prints
one line per object; exits 1 on the first difference."""
import struct
import sys
import xml.etree.ElementTree as ET
import zipfile

NS = "{http://schemas.microsoft.com/3dmanufacturing/core/2015/02}"


def f32(x):
    return struct.unpack("<f", struct.pack("<f", float(x)))[0]


def canon(tri):
    k = min(range(3), key=lambda i: tri[i])
    return tri[k:] + tri[:k]


def stl_tris(path):
    data = open(path, "rb").read()
    n = struct.unpack_from("<I", data, 80)[0]
    if len(data) != 84 + 50 * n:
        sys.exit(f"{path}: not a binary STL of {n} facets")
    out = []
    for i in range(n):
        v = struct.unpack_from("<12f", data, 84 + 50 * i)
        out.append(canon([tuple(v[3:6]), tuple(v[6:9]), tuple(v[9:12])]))
    return sorted(out)


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    with zipfile.ZipFile(args[0]) as z:
        names = z.namelist()
        for need in ("[Content_Types].xml", "_rels/.rels", "3D/3dmodel.model"):
            if need not in names:
                sys.exit(f"{args[0]}: no {need}")
        root = ET.fromstring(z.read("3D/3dmodel.model"))
    if root.get("unit") != "millimeter":
        sys.exit(f"{args[0]}: unit is {root.get('unit')}")
    objs = root.find(NS + "resources").findall(NS + "object")
    if len(objs) != len(args) - 1:
        sys.exit(f"{args[0]}: {len(objs)} objects, {len(args) - 1} STLs")
    for k, (obj, stl) in enumerate(zip(objs, args[1:]), 1):
        if obj.get("name") != f"piece-{k}":
            sys.exit(f"object {k} is named {obj.get('name')}")
        mesh = obj.find(NS + "mesh")
        verts = [(f32(v.get("x")), f32(v.get("y")), f32(v.get("z")))
                 for v in mesh.find(NS + "vertices")]
        tris = [[int(t.get("v1")), int(t.get("v2")), int(t.get("v3"))]
                for t in mesh.find(NS + "triangles")]
        edges = {}
        for t in tris:
            for a, b in ((t[0], t[1]), (t[1], t[2]), (t[2], t[0])):
                edges[(a, b)] = edges.get((a, b), 0) + 1
        for (a, b), c in edges.items():
            if c != 1 or edges.get((b, a)) != 1:
                sys.exit(f"object {k}: edge {a}-{b} not paired")
        got = sorted(canon([verts[i] for i in t]) for t in tris)
        want = stl_tris(stl)
        if got != want:
            sys.exit(f"object {k} differs from {stl} ({len(got)} vs {len(want)} triangles)")
        print(f"object {k} = {stl}: {len(got)} triangles")


main()
