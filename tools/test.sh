#!/usr/bin/env bash
# Builds and runs every test, in two build directories (README command 2 and
# .ci/run run it after tools/setup.sh):
#   build       the Release build of tools/setup.sh: the whole suite;
#   build-asan  clang, Debug (asserts on) at -O1, with AddressSanitizer,
#               UndefinedBehaviorSanitizer (a report fails the test) and
#               LeakSanitizer (tests/sanitize/lsan.supp): the suite without the
#               long physics runs, the large rank counts and the SLURM and
#               packaging tests, then a bounded run of each libFuzzer target
#               of tests/fuzz (a fixed seed and number of inputs each).
# Both parts run even if the first fails; the exit status is 1 if either did.
# `tools/test.sh main` or `tools/test.sh sanitize` runs one part only.
set -uo pipefail
cd "$(dirname "$0")/.."
part=${1:-all}
# Not repeated under the sanitizers: scripts without moreau code (jobscripts,
# SLURM, packaging, the README check, the plotting scripts, the campaign
# tools; the example script, whose run is the shear runs'), the long
# physics runs (2D piles and arrays, 3D spheres: 8 minutes alone under the
# sanitizers; the steady shear flows and mu(I); the trimer deposition against
# one rank, 6.5 minutes; the detection skin's 3D runs and its 3-rank runs,
# whose code the 2D one-rank runs and the unit test cover; the free top's
# 1e5 steps, whose code the closed-form cluster tests run; the static 2D
# packing's 8000 steps, whose stress code the other stress tests run), the
# kill and signal timing tests of checkpoints (many runs each; the
# checkpoint code itself runs in the other checkpoint tests), the
# renumbering invariance on 3 ranks (its 15 runs take 83 s; the 1-rank test
# runs the same scenes, the unit test renumbers with migrants on 2 ranks),
# the MD law's 2-rank run (its 5e4 steps of one disk
# are 5e4 rounds of collective calls, 67 s; its 1-rank run has the same
# code), and 4, 8 and 16 ranks (the same code as 1 and 2 ranks, at four
# times the cost and more).
skip='^(slurm_|jobscripts_|package_|plots_|campaign_|app_example$|app_readme_options$|physics_(pile|array|walls)|physics3d_|shear_(steady|mu_of_i)|generate_np3$|checkpoint_(fault|signals)_|checkpoint_repartition_4to1$|clusters_deposition_|detect_skin_(pile3d|sheared3d)_|detect_skin_.*_np3$|clusters3d_long_spin_|stress_static_2d$|app_renumber_invariance_np3$|physics_md_np2$)|_np([48]|16)$'
status=0
if [ "$part" = all ] || [ "$part" = main ]; then
  { cmake --build build -j2 && ctest --test-dir build --output-on-failure -j2; } || status=1
fi
if [ "$part" = all ] || [ "$part" = sanitize ]; then
  { CC=clang-14 cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-g -O1" \
      -DMOREAU_SANITIZE=ON -DMOREAU_FUZZ=ON >/dev/null &&
    cmake --build build-asan -j2 &&
    ctest --test-dir build-asan --output-on-failure -j2 -E "$skip"; } || status=1
fi
exit $status
