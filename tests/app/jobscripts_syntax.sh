# Every jobscript parses (bash -n), and run.sbatch asks for the pre-timeout
# signal its trap handles.
jobscripts=$1
n=0
for f in "$jobscripts"/*.sh "$jobscripts"/*.sbatch; do
  bash -n "$f" || { echo "FAIL: $f does not parse" >&2; exit 1; }
  n=$((n + 1))
done
[ "$n" -ge 4 ] || { echo "FAIL: only $n jobscripts in $jobscripts" >&2; exit 1; }
grep -q '^#SBATCH --signal=B:USR1@300$' "$jobscripts/run.sbatch" || { echo "FAIL: run.sbatch lacks --signal=B:USR1@300" >&2; exit 1; }
grep -q '^trap .* USR1$' "$jobscripts/run.sbatch" || { echo "FAIL: run.sbatch has no USR1 trap" >&2; exit 1; }
echo "jobscripts_syntax: $n scripts ok"
