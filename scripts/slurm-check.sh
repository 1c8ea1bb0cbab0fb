#!/usr/bin/env bash
# make slurm-check: the "Slurm array" recipe of docs/scale-out.md, run for real on a throwaway
# single-node Slurm cluster.
#
#   scripts/slurm-check.sh HEXMASK
#
# HEXMASK is the built binary (the Makefile passes the debug one). As root it installs
# Debian's slurmctld, slurmd, slurm-client and munge with apt-get when missing; otherwise a
# missing one fails the check with a message naming them. Everything else lives in one
# temporary folder:
#   - munged with its own key, socket, pid, log and seed files;
#   - slurm.conf and cgroup.conf for one node (this host, with the CPUs and memory that
#     `slurmd -C` reports) in one partition, with every state, spool, log and pid file in
#     the folder; no cgroups and no systemd are needed (proctrack/linuxproc, task/none,
#     jobacct_gather/none), as Slurm documents for hosts without them;
#   - slurmctld and slurmd, started in the foreground (-D) as background jobs of this script.
# The job script is the one docs/scale-out.md shows, cut out of it, with only these changes:
# /data/photos, /data/avatars and /data/logs become folders in the temporary folder; 64
# shards become 4 (--array=0-3, --shard .../4); --cpus-per-task=8 becomes 1, which fits any
# machine and lets the tasks run side by side; hexmask gets `--size 64,256` (two sizes). It
# is submitted with `sbatch --wait`, then the check wants: every task COMPLETED with exit
# code 0 (Slurm's job completion log), no task's standard error, each output written by
# exactly one task, and the whole output tree byte for byte what one plain `hexmask -r` run
# writes.
# The daemons are stopped and the folder removed on every way out. Exit status 0 means the
# recipe works; anything else prints one line starting "slurm-check: FAILED" and the logs.
set -euo pipefail

# Fails the check. Once the cluster is up, the message is printed again after its logs, so
# that it is the last line either way.
failure=
die() {
  failure=$*
  printf 'slurm-check: FAILED: %s\n' "$failure" >&2
  exit 1
}

[[ $# -eq 1 ]] || die "usage: $0 HEXMASK"
[[ -x $1 ]] || die "$1 is not an executable hexmask"
hexmask=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
page=$root/docs/scale-out.md
started=$SECONDS

# The Debian packages, the slurm-check line of packaging/debian-packages, installed as root
# when missing (like `make deps` and .ci/run).
package_list=$root/packaging/debian-packages
read -ra packages <<<"$(sed -n 's/^slurm-check:[[:space:]]*//p' "$package_list")"
((${#packages[@]} > 0)) || die "packaging/debian-packages has no slurm-check line"
have_all() {
  command -v slurmctld && command -v slurmd && command -v sbatch && command -v sinfo &&
    command -v munged && command -v mungekey
} >/dev/null 2>&1
if ! have_all; then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "slurm-check: installing ${packages[*]} with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update </dev/null >/dev/null
    apt-get install -y --no-install-recommends "${packages[@]}" </dev/null >/dev/null
    have_all || die "${packages[*]} are still missing after apt-get install"
  else
    die "needs ${packages[*]} (Debian/Ubuntu: sudo apt-get install ${packages[*]})"
  fi
fi
# slurmd runs jobs as the user who submits them, and only root can start it for another.
[[ $(id -u) -eq 0 ]] || die "must run as root (slurmd starts the jobs as their owner)"

work=$(mktemp -d "${TMPDIR:-/tmp}/hexmask-slurm.XXXXXX")
pids=()
# Waits up to $1 seconds for the command that follows to succeed, and gives up at once when
# a daemon started so far has died.
wait_for() {
  local seconds=$1 pid
  shift
  local deadline=$((SECONDS + seconds))
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    for pid in "${pids[@]}"; do
      kill -0 "$pid" 2>/dev/null || return 1
    done
    sleep 0.2
  done
}
jobs_left() { [[ -n $(timeout 5 squeue -h -o %i 2>/dev/null) ]]; }
no_jobs_left() { ! jobs_left; }
# The slurmstepd processes of this cluster (slurmd starts them with its environment, which
# names this slurm.conf): one may still be closing its job when `sbatch --wait` returns.
our_steps() {
  local proc
  for proc in /proc/[0-9]*; do
    [[ $(cat "$proc/comm" 2>/dev/null) == slurmstepd ]] || continue
    tr '\0' '\n' <"$proc/environ" 2>/dev/null | grep -qxF "SLURM_CONF=$work/slurm.conf" &&
      echo "${proc#/proc/}"
  done
  return 0
}
no_steps_left() { [[ -z $(our_steps) ]]; }
cleanup() {
  local status=$? last=$BASH_COMMAND pid log
  trap - EXIT INT TERM
  if [[ $status -ne 0 ]]; then
    # The daemons' own logs, or their standard error when they died before opening them.
    for log in "$work"/log/{diff,munged,slurmctld,slurmd}.log "$work"/data/logs/*.err; do
      [[ -s $log ]] || log=${log%.log}.out.log
      [[ -s $log ]] || continue
      printf '\n--- %s (last lines)\n' "${log#"$work"/}" >&2
      tail -n 12 "$log" >&2
    done
    printf '\nslurm-check: FAILED: %s\n' "${failure:-exit status $status from: $last}" >&2
  fi
  # Jobs still queued or running (after a failure) are cancelled while the daemons are up,
  # so that no job step outlives them; then slurmd, slurmctld and munged are stopped.
  if [[ $status -ne 0 && ${#pids[@]} -ge 3 ]] && jobs_left; then
    scancel --full --quiet --partition=check 2>/dev/null || true
    wait_for 10 no_jobs_left || true
  fi
  wait_for 10 no_steps_left || true
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    pid=${pids[i]}
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  for pid in $(our_steps); do
    echo "slurm-check: killing a job step left behind (slurmstepd, pid $pid)" >&2
    kill -KILL "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'failure=interrupted; exit 130' INT
trap 'failure=terminated; exit 143' TERM

mkdir -p "$work"/{munge,log,state,spool,data/logs,data/avatars}
# munged wants every folder above its socket searchable by all, and none writable by others.
chmod 755 "$work" "$work/munge"

# The job script, the sh block under "## Slurm array", cut out of docs/scale-out.md before
# anything starts.
recipe=$(awk '
  /^## Slurm array$/ { section = 1; next }
  section && !inside && /^#/ { exit }
  section && !inside && /^```sh$/ { inside = 1; next }
  inside && /^```$/ { exit }
  inside { print }
' "$page")
[[ $recipe == '#!/bin/sh'* ]] || die "docs/scale-out.md has no sh block under \"## Slurm array\""
# The changes, each of which must apply exactly: a change of the page that drops one fails here.
adapt() { # adapt FROM TO: replaces FROM (literally) everywhere, and wants it present.
  [[ $recipe == *"$1"* ]] || die "the Slurm recipe of docs/scale-out.md no longer has '$1'"
  recipe=${recipe//"$1"/"$2"}
}
adapt /data/photos "$work/data/photos"
adapt /data/avatars "$work/data/avatars"
adapt /data/logs "$work/data/logs"
adapt '--array=0-63' '--array=0-3'
adapt '--cpus-per-task=8' '--cpus-per-task=1'
adapt '/64"' '/4"'
adapt $'\nhexmask ' $'\nhexmask --size 64,256 '
printf '%s\n' "$recipe" >"$work/hexmask.sh"

# munged, with its own key and files (Debian's own munged, if running, is left alone).
socket=$work/munge/munge.socket
mungekey --create --keyfile="$work/munge/munge.key" >/dev/null 2>&1 ||
  die "mungekey could not create a key"
munged --foreground --socket="$socket" --key-file="$work/munge/munge.key" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/log/munged.log" \
  --seed-file="$work/munge/munged.seed" </dev/null >>"$work/log/munged.out.log" 2>&1 &
pids+=($!)
wait_for 10 test -S "$socket" || die "munged did not start (log below)"

# slurm.conf: this host, with the hardware slurmd sees, reached at 127.0.0.1 (whatever its
# name resolves to) on two free ports.
host=$(hostname -s)
node=$(slurmd -C | sed -n 's/^NodeName=[^ ]* //p')
[[ -n $node ]] || die "slurmd -C printed no node line"
port_in_use() { (: <"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
ctld_port=6817
while port_in_use "$ctld_port" || port_in_use "$((ctld_port + 1))"; do
  ctld_port=$((ctld_port + 2))
done
export SLURM_CONF=$work/slurm.conf
cat >"$SLURM_CONF" <<EOF
# Written by scripts/slurm-check.sh; removed with its folder.
ClusterName=hexmask-check
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$((ctld_port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups (a container may have none to give, and nothing here needs limits): processes
# are tracked through their parent ids, tasks are not bound, nothing is gathered.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
# Each finished array task gets a line here: its state and exit code are checked.
JobCompType=jobcomp/filetxt
JobCompLoc=$work/log/jobcomp.txt
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
NodeName=$host NodeAddr=127.0.0.1 $node State=UNKNOWN
PartitionName=check Nodes=$host Default=YES MaxTime=10 State=UP
EOF
# No plugin above uses cgroups, so slurmd only reads this for its defaults: never mount a
# cgroup file system, never ask systemd (there may be none).
cat >"$work/cgroup.conf" <<EOF
CgroupAutomount=no
IgnoreSystemd=yes
EOF

slurmctld -D -f "$SLURM_CONF" </dev/null >>"$work/log/slurmctld.out.log" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" </dev/null >>"$work/log/slurmd.out.log" 2>&1 &
pids+=($!)
node_idle() { [[ $(sinfo -h -n "$host" -o '%t' 2>/dev/null) == idle ]]; }
wait_for 30 node_idle ||
  die "node $host is not idle after 30 s (sinfo: $(sinfo -h -N -o '%N %t %E' 2>&1 | head -n 1))"
echo "slurm-check: $(sinfo --version), node $host idle after $((SECONDS - started)) s"

# The inputs: the photos the tests' GNU parallel run uses (the sample photo, the EXIF
# ones and two PNGs), in two subfolders, so that all four shards get work.
photos=$work/data/photos
mkdir -p "$photos/landscape" "$photos/portrait"
cp "$root"/Fixtures/exif/Landscape_*.jpg "$root/Fixtures/photos/rocket.jpg" "$photos/landscape/"
cp "$root"/Fixtures/exif/Portrait_*.jpg "$root/Fixtures/photos/rocket.jpg" \
  "$root/Fixtures/pngsuite/basn2c08.png" "$root/Fixtures/pngsuite/basn6a08.png" "$photos/portrait/"
inputs=$(find "$photos" -type f | wc -l)

# Submit as docs/scale-out.md says (after its mkdir), with hexmask on the jobs' PATH (sbatch passes on
# the environment), and wait for every task.
cd "$work/data"
PATH=$(dirname "$hexmask"):$PATH
export PATH
submitted=$SECONDS
sbatch_status=0
sbatch_out=$(timeout --foreground 120 sbatch --wait --quiet "$work/hexmask.sh" 2>&1) || sbatch_status=$?
[[ $sbatch_status -ne 124 ]] || die "the array did not finish within 120 s"
((sbatch_status < 128)) || die "sbatch --wait was stopped by signal $((sbatch_status - 128))"
[[ -z $sbatch_out ]] || die "sbatch: $sbatch_out"

# Every task COMPLETED with exit code 0, by Slurm's job completion log (one line a task),
# and with nothing on its standard error; `sbatch --wait` exits with the highest task's
# exit code, which must then be 0 too.
comp=$work/log/jobcomp.txt
for i in 0 1 2 3; do
  line=$(grep " ArrayTaskId=$i " "$comp" || true)
  [[ -n $line ]] || die "array task $i is not in Slurm's job completion log"
  state=$(grep -o 'JobState=[^ ]*' <<<"$line")
  code=$(grep -o ' ExitCode=[^ ]*' <<<"$line")
  err=$work/data/logs/$i.err
  [[ $state == JobState=COMPLETED && $code == ' ExitCode=0:0' ]] ||
    die "array task $i: $state$code; logs/$i.err: $(head -n 1 "$err" 2>/dev/null)"
  [[ ! -s $err ]] || die "array task $i wrote to its standard error: $(head -n 1 "$err")"
  grep -q '"status":"written"' "$work/data/logs/$i.jsonl" 2>/dev/null ||
    die "array task $i wrote no output (logs/$i.jsonl)"
done
[[ $sbatch_status -eq 0 ]] || die "sbatch --wait exited $sbatch_status, yet every task completed"
echo "slurm-check: the 4 array tasks completed in $((SECONDS - submitted)) s"

# Each output written once, by one task, and all of them together equal to one plain run.
"$hexmask" -r photos --out-dir plain -q --size 64,256 ||
  die "the plain run exited $?"
expected=$((2 * inputs))
outputs() { (cd "$1" && find . -path ./.hexmask -prune -o -type f -print | sort); }
[[ $(outputs plain | wc -l) -eq $expected ]] ||
  die "the plain run wrote $(outputs plain | wc -l) files, not $expected ($inputs photos, 2 sizes)"
written=$(grep -h '"status":"written"' logs/?.jsonl | grep -o '"output":"[^"]*"' | sort)
[[ $(printf '%s\n' "$written" | wc -l) -eq $expected ]] ||
  die "the tasks' --json lines have $(printf '%s\n' "$written" | wc -l) written outputs, not $expected"
twice=$(printf '%s\n' "$written" | uniq -d)
[[ -z $twice ]] || die "written by two tasks: $twice"
diff -r --exclude=.hexmask plain avatars >"$work/log/diff.log" 2>&1 ||
  die "the array's outputs differ from the plain run's: $(head -n 1 "$work/log/diff.log")"
# Rerun records: one per output, as the plain run keeps them (their times differ).
records() { (cd "$1/.hexmask" && find . -type f | sort); }
[[ $(records avatars) == "$(records plain)" ]] ||
  die "the array's rerun records (avatars/.hexmask) are not the plain run's"

echo "slurm-check: ok: 4 array tasks rendered $inputs photos at 2 sizes, $expected files," \
  "byte-identical to one plain run ($((SECONDS - started)) s)"
