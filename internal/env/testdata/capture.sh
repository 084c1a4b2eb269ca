#!/bin/sh
# capture.sh records the procfs/sysfs files the env probes read, from the
# live Linux machine, into fixture roots laid out like "/":
#
#   vm/         this machine as found (other users' load included) (2-vCPU KVM guest in a container,
#               no cpufreq, no DMI, no /sys/hypervisor)
#   vm-hogs/    the same machine while two busy loops compete for the CPUs:
#               /proc/loadavg and /proc/stat taken after 12 s of
#               `sh -c 'while :; do :; done'` x2 (bounded by `timeout 15`),
#               plus the schedstat of both busy loops (the sh under each timeout).
#
# Run from the repository root:  sh internal/env/testdata/capture.sh
# The tests assert the exact values in these files: after re-capturing,
# update the expected Snapshots in fixtures_test.go.
#
# The other roots (baremetal-powersave, amd-boost, arm64, xen-steal, empty,
# garbage) are written by hand; see the README.txt in each.
set -eu
dir=$(dirname "$0")

copy() { # copy ROOT FILE...: copy each absolute FILE under ROOT, if readable
	root=$1; shift
	for f in "$@"; do
		[ -r "$f" ] || continue
		mkdir -p "$root$(dirname "$f")"
		cat "$f" > "$root$f"
	done
}

q=$dir/vm
rm -rf "$q"
copy "$q" /proc/loadavg /proc/stat /proc/cpuinfo \
	/sys/hypervisor/type /sys/class/dmi/id/sys_vendor /sys/class/dmi/id/product_name \
	/sys/devices/system/cpu/intel_pstate/no_turbo /sys/devices/system/cpu/cpufreq/boost \
	/sys/devices/system/cpu/smt/control /sys/devices/system/cpu/cpuidle/current_driver \
	/sys/devices/system/cpu/online
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	# The cpuN directories have no cpufreq/ here; core_id keeps each
	# directory in git so readGovernors walks real (empty-handed) CPUs.
	copy "$q" "$c/topology/core_id" "$c/cpufreq/scaling_governor"
done
# schedstat of this shell (run_ns wait_ns slices), as the one thread of "self"
mkdir -p "$q/proc/self/task/$$"
cat "/proc/$$/schedstat" > "$q/proc/self/task/$$/schedstat"

l=$dir/vm-hogs
rm -rf "$l"
timeout 15 sh -c 'while :; do :; done' & h1=$!
timeout 15 sh -c 'while :; do :; done' & h2=$!
sleep 12
copy "$l" /proc/loadavg /proc/stat
for h in $h1 $h2; do
	s=$(pgrep -P "$h") # the sh spinning under timeout
	mkdir -p "$l/proc/self/task/$s"
	cat "/proc/$s/schedstat" > "$l/proc/self/task/$s/schedstat"
done
kill "$h1" "$h2" 2>/dev/null || true
wait "$h1" "$h2" 2>/dev/null || true
echo "captured $q and $l; hogs $h1 $h2 ended"
