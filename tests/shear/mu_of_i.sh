# sh mu_of_i.sh DIR_SLOW DIR_FAST
#
# The friction and dilatancy laws from the steady flows of steady.sh at two
# inertial numbers (their steady.json): tau/p rises with I and phi falls,
# by more than the window-to-window spread: mu(0.1) - mu(0.01) > 0.05
# (0.14 seen) and phi(0.01) - phi(0.1) > 0.01 (0.028 seen).
# shellcheck shell=sh
python3 - "$1/steady.json" "$2/steady.json" <<'PY'
import json, sys
slow, fast = (json.load(open(p)) for p in sys.argv[1:3])
print(f"I = 0.01: mu {slow['friction']:.4f} phi {slow['solid_fraction']:.4f}; "
      f"I = 0.1: mu {fast['friction']:.4f} phi {fast['solid_fraction']:.4f}")
ok = fast["friction"] - slow["friction"] > 0.05 and slow["solid_fraction"] - fast["solid_fraction"] > 0.01
if not ok:
    print("FAIL: mu(I) does not rise or phi(I) does not fall between I = 0.01 and 0.1", file=sys.stderr)
sys.exit(0 if ok else 1)
PY
