# gen.py ROWS SEED - write the eon workload's scene in NFF (Eric Haines'
# Standard Procedural Databases format, which tachyon reads) to stdout: an
# image 320 pixels wide and ROWS high of a generated still life: a
# reflective checkered floor of polygons, a grid of spheres with generated
# radii and materials (diffuse, shiny, mirror-like, transparent with
# refraction), cones, a few floating triangles, three lights.
# Deterministic: a 64-bit LCG, no Python hashing, no clock; numbers are
# printed from integers (fixed decimals), so the text is the same everywhere.
import sys

rows, seed = int(sys.argv[1]), int(sys.argv[2])
M64 = 2**64 - 1
state = (seed * 6364136223846793005 + 1442695040888963407) & M64


def rnd(k):
    global state
    state = (state * 6364136223846793005 + 1442695040888963407) & M64
    return (state >> 33) % k


def num(milli):
    """An integer number of thousandths as a fixed-point decimal."""
    sign = "-" if milli < 0 else ""
    milli = abs(milli)
    return "%s%d.%03d" % (sign, milli // 1000, milli % 1000)


def vec(*ms):
    return " ".join(num(m) for m in ms)


out = []
out.append("v")
out.append("from " + vec(0, 5200, -13000))
out.append("at " + vec(0, 800, 0))
out.append("up " + vec(0, 1000, 0))
out.append("angle 45")
out.append("hither 0.010")
out.append("resolution 320 %d" % rows)
out.append("b " + vec(150, 180, 250))
out.append("l " + vec(8000, 14000, -9000))
out.append("l " + vec(-9000, 11000, -4000))
out.append("l " + vec(0, 20000, 6000))
# floor: 12 x 12 tiles in two materials, slightly reflective
for parity in (0, 1):
    if parity == 0:
        out.append("f " + vec(900, 900, 880, 700, 300) + " 30 0.000 1.000")
    else:
        out.append("f " + vec(200, 220, 300, 700, 300) + " 30 0.000 1.000")
    for i in range(12):
        for j in range(12):
            if (i + j) % 2 != parity:
                continue
            x0, z0 = (i - 6) * 2000, (j - 6) * 2000
            out.append("p 4")
            out.append(vec(x0, 0, z0))
            out.append(vec(x0 + 2000, 0, z0))
            out.append(vec(x0 + 2000, 0, z0 + 2000))
            out.append(vec(x0, 0, z0 + 2000))
# spheres on a 7 x 5 grid, jittered
for i in range(7):
    for j in range(5):
        kind = rnd(4)
        r, g, b = 200 + rnd(800), 200 + rnd(800), 200 + rnd(800)
        if kind == 0:      # diffuse
            out.append("f " + vec(r, g, b, 900, 100) + " 5 0.000 1.000")
        elif kind == 1:    # shiny
            out.append("f " + vec(r, g, b, 600, 400) + " 60 0.000 1.000")
        elif kind == 2:    # mirror-like
            out.append("f " + vec(r, g, b, 200, 800) + " 100 0.000 1.000")
        else:              # glass
            out.append("f " + vec(r, g, b, 200, 500) + " 80 0.700 1.500")
        rad = 400 + rnd(500)
        x = (i - 3) * 2300 + rnd(600) - 300
        z = (j - 2) * 2300 + rnd(600) - 300
        out.append("s " + vec(x, rad, z, rad))
# cones
out.append("f " + vec(800, 500, 200, 700, 300) + " 40 0.000 1.000")
for k in range(6):
    x, z = rnd(14000) - 7000, rnd(10000) - 5000
    out.append("c")
    out.append(vec(x, 0, z, 300 + rnd(400)))
    out.append(vec(x, 1500 + rnd(2000), z, rnd(150)))
# floating triangles
out.append("f " + vec(300, 900, 500, 500, 500) + " 50 0.300 1.300")
for k in range(8):
    x, y, z = rnd(12000) - 6000, 2500 + rnd(2500), rnd(8000) - 4000
    out.append("p 3")
    out.append(vec(x, y, z))
    out.append(vec(x + 1500, y + rnd(800), z + 400))
    out.append(vec(x + 500, y + 1400, z - 300))
print("\n".join(out))
