# eon.wl - the Tachyon ray tracer rendering a generated scene with one thread (SPEC 252.eon's kind: a ray tracer).
# POV-Ray (the issue's first choice, also SPEC CPU2006 453.povray) cannot be
# traced deterministically: POV-Ray 3.7 starts 8 threads even with +WT1 (a
# front end, a back end and task threads exchanging messages), and two runs
# under Valgrind execute different numbers of instructions (README.md, "The
# suite").  Tachyon with -numthreads 1 creates no thread.
WL_DESC="tachyon-nox renders scene.nff (320 x WL_UNIT pixels, one thread): reflective tiled floor, 35 spheres of four materials incl. refracting glass, cones, triangles, 3 lights"
WL_PACKAGE=tachyon-bin-nox
WL_PROGRAM=/usr/bin/tachyon-nox
WL_INPUT="inputs/eon/gen.py WL_UNIT 1 writes scene.nff (NFF): positions, radii and materials from an LCG, WL_UNIT image rows"
WL_WHY_SKIP="parsing the scene and building the bounding hierarchy take ~5M instructions"
WL_PRELOAD_FIXTIME=1      # tachyon prints its parse, set-up and render times (gettimeofday)
WL_RESULT=scene.ppm       # compared between runs by the tests
WL_UNIT_tiny=20           WL_SKIP_tiny=6000000
WL_UNIT_default=250       WL_SKIP_default=50000000
WL_UNIT_paper=2100        WL_SKIP_paper=500000000

wl_input() { /usr/bin/python3 -S -B "$WL_SRC/gen.py" "$WL_UNIT" 1 > scene.nff; }
wl_command() { WL_ARGV=(/usr/bin/tachyon-nox scene.nff -numthreads 1 -format PPM -o scene.ppm); }
