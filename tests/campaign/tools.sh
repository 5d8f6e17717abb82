# sh tools.sh TOOLS WORKDIR
#
# tools/steady_state.py and tools/plot_muI.py against hand computations, on
# made-up data (no moreau run):
#  - a time series with a transient (strain 0-1: mu 0.1, phi 0.70) then
#    blocks of one strain alternating mu 0.30 / 0.26 and phi 0.80 / 0.82,
#    sigma_yy = 1000 for a target p = 1210: steady from strain 1, 4 blocks,
#    mu 0.28 +- 0.023094/2, phi 0.81 +- 0.011547/2 (sd with n - 1 over 4
#    block values, divided by sqrt 4), I_measured = I sqrt(1210/1000) = 1.1 I;
#  - one whose phi drifts linearly (0.80 + 0.002 per half strain): rule (a)
#    alone would call it steady from strain 0, rule (b) flags it;
#  - points on mu = 0.25 + 1.1 I, phi = 0.82 - 0.3 I at I = 0.01, 0.1, 0.2,
#    error bars 0.01 (mu) and 0.002 (phi): the fit gives the constants back,
#    with standard errors e sqrt(sum I^2 / D) and e sqrt(3 / D),
#    D = 3 sum I^2 - (sum I)^2 = 0.0542: 0.0096 and 0.074 for mu,
#    0.0019 and 0.015 for phi;
#  - bad tables and time series: one line on stderr, exit 2.
# shellcheck shell=sh
tools=$1 work=$2
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

# Rows every 0.01 strain (at the middle of each step) up to 5.
python3 - <<'PY'
def series(path, value):
    with open(path, "w") as f:
        f.write("step,time,strain,solid_fraction,pressure_target,normal_stress,shear_stress,friction,max_overlap\n")
        for i in range(500):
            strain = (i + 0.5) / 100
            tau, phi = value(int(strain // 0.5))
            f.write(f"{i},{i},{strain:.3f},{phi},1210,1000,{tau},{tau / 1000},1e-4\n")
def steady(w):
    if w < 2:
        return 100, 0.70
    return (300, 0.80) if (w // 2) % 2 == 1 else (260, 0.82)
series("steady.csv", steady)
series("drift.csv", lambda w: (300, 0.80 + 0.002 * w))
PY
python3 "$tools/steady_state.py" steady.csv --inertial_number 0.1 --json >steady.json || fail "steady_state on steady.csv"
python3 - <<'PY' || fail "steady_state figures differ from the hand computation"
import json, math
s = json.load(open("steady.json"))
want = {"steady": True, "steady_from": 1.0, "blocks": 4, "mu": 0.28, "mu_err": 0.023094011 / 2, "phi": 0.81,
        "phi_err": 0.011547005 / 2, "I_measured": 0.11, "normal_stress": 1000}
bad = [f"{k} = {s[k]}, expected {v}" for k, v in want.items()
       if (s[k] != v if isinstance(v, bool) else not math.isclose(s[k], v, rel_tol=1e-6))]
print("\n".join(bad) if bad else "steady.csv: as computed by hand")
raise SystemExit(1 if bad else 0)
PY
python3 "$tools/steady_state.py" drift.csv --inertial_number 0.1 --json >drift.json || fail "steady_state on drift.csv"
python3 -c "import json; s = json.load(open('drift.json')); raise SystemExit(0 if s['steady'] is False and s['steady_from'] is None else 1)" ||
  fail "a drifting solid fraction was taken as steady: $(cat drift.json)"
python3 "$tools/steady_state.py" steady.csv --inertial_number 0.1 | tail -n 1 | grep -q "^steady from strain 1: 4 blocks" ||
  fail "steady_state's text summary"

# Bad input to steady_state: one line, exit 2.
one_line_error() { # WHAT STATUS: the last command's status and stderr
  [ "$2" = 2 ] || fail "$1: exit status $2, expected 2"
  [ "$(wc -l <err)" -eq 1 ] || fail "$1: stderr is not one line: $(cat err)"
}
cut -d, -f1-5 steady.csv >nostress.csv
python3 "$tools/steady_state.py" nostress.csv --inertial_number 0.1 2>err
one_line_error "a time series without stresses" $?
grep -q "no column normal_stress" err || fail "the missing column is not named: $(cat err)"
head -n 20 steady.csv >short.csv
python3 "$tools/steady_state.py" short.csv --inertial_number 0.1 2>err
one_line_error "a time series too short for 2 blocks" $?
python3 "$tools/steady_state.py" steady.csv 2>err
one_line_error "no --inertial_number" $?

# The fits against the line the points lie on.
cols=I_target,I_measured,mu,mu_err,phi,phi_err,steady_from,strain,n_bodies,wall_seconds,steady,blocks,dt,max_overlap_d,output_dir
{
  echo "$cols"
  for i in 0.01 0.1 0.2; do
    awk -v i=$i 'BEGIN { printf "%s,%s,%.6f,0.01,%.6f,0.002,1,5,100,1,1,4,1e-3,0.01,d%s\n", i, i, 0.25 + 1.1 * i, 0.82 - 0.3 * i, i }'
  done
  echo "0.3,0.3,0.9,0.01,0.5,0.002,,5,100,1,0,4,1e-3,0.01,unsteady"
  echo "0.5,,,,,,,,,,,,,,failed"
} >line.csv
python3 "$tools/plot_muI.py" line.csv -o line.png >out || fail "plot_muI on line.csv: $(cat out)"
cat out
grep -qF "mu_1 = 0.2500 +- 0.0096, b = 1.100 +- 0.074 (chi2/dof 0.00, 3 steady cases)" out || fail "mu fit: $(cat out)"
grep -qF "phi_max = 0.8200 +- 0.0019, a = 0.300 +- 0.015" out || fail "phi fit: $(cat out)"
[ "$(head -c 4 line.png | od -An -c | tr -d ' ')" = "211PNG" ] || fail "line.png is not a PNG"

for bad in "missing column" "not a number" "one steady case" "no file"; do
  case $bad in
  "missing column") cut -d, -f1-4 line.csv >bad.csv ;;
  "not a number") sed 's/^0.1,0.1,/0.1,x,/' line.csv >bad.csv ;;
  "one steady case") head -n 2 line.csv >bad.csv ;;
  "no file") rm -f bad.csv ;;
  esac
  python3 "$tools/plot_muI.py" bad.csv -o bad.png >/dev/null 2>err
  one_line_error "plot_muI, $bad" $?
  grep -q "^plot_muI: error: " err || fail "plot_muI, $bad: $(cat err)"
  [ -e bad.png ] && fail "plot_muI, $bad: a PNG was written"
done
echo "campaign tools: ok"
