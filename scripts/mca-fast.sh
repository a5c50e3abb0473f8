#!/bin/sh
# Model one propagation round of the `fast` back end on other cores with
# llvm-mca: the tool for tuning fast on a CPU you do not have (an Intel core
# from an AMD machine, or the reverse). It compiles solvers/fast.c as the
# build directory does, with SUDOLAB_MCA so that each instruction-set path's
# round is bracketed in the assembly (FK_MCA in solvers/fast_kernel.h), and
# prints per path and core the instructions, the simulated cycles of a round
# (100 rounds back to back, so a round's chain of dependent steps counts) and
# the ports that bound it. A model, not a measurement: it knows neither branch
# mispredictions nor caches; measure on the core itself where you can.
#
#   scripts/mca-fast.sh BUILD_DIR [EXTRA_CFLAG ...]
#   MCA_CPUS="znver4 sapphirerapids" scripts/mca-fast.sh build-release -march=x86-64-v3
#
# llvm-mca: the newest one found (Debian's llvm-16 models znver4, llvm-14 does
# not; llvm-16 models sapphirerapids with Skylake server's tables).
set -eu

if [ $# -lt 1 ] || [ ! -f "$1/compile_commands.json" ]; then
    echo "usage: $0 BUILD_DIR [EXTRA_CFLAG ...] (a configured meson build directory)" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
shift
mca=
for m in llvm-mca-19 llvm-mca-18 llvm-mca-17 llvm-mca-16 /usr/lib/llvm-16/bin/llvm-mca llvm-mca; do
    if command -v "$m" > /dev/null 2>&1; then
        mca=$m
        break
    fi
done
if [ -z "$mca" ]; then
    echo "$0: no llvm-mca (Debian: apt-get install llvm-16)" >&2
    exit 1
fi
cpus=${MCA_CPUS:-znver4 icelake-server sapphirerapids}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# fast.c's compile command, its output turned into assembly
cmd=$(python3 - "$build/compile_commands.json" << 'EOF'
import json, shlex, sys
for e in json.load(open(sys.argv[1])):
    if e["file"].endswith("solvers/fast.c"):
        args = shlex.split(e["command"])
        out = []
        skip = False
        for a in args:
            if skip:
                skip = False
                continue
            if a in ("-o", "-MF", "-MQ"):
                skip = True
                continue
            if a in ("-c", "-MD") or a.startswith("-fdiagnostics"):
                continue
            out.append(a)
        print(shlex.join(out))
        break
EOF
)
if [ -z "$cmd" ]; then
    echo "$0: $build/compile_commands.json has no solvers/fast.c" >&2
    exit 1
fi
(cd "$build" && eval "$cmd" -DSUDOLAB_MCA "$@" -S -o "$tmp/fast.s")

echo "# llvm-mca: $($mca --version 2>&1 | grep -i 'version' | head -n 1 | sed 's/^ *//')"
echo "# compiler flags added: -DSUDOLAB_MCA $*"
printf '%-10s %-16s %8s %8s %8s  %s\n' path core instr cycles rthru "busiest ports (share of the round)"
for cpu in $cpus; do
    "$mca" -mtriple=x86_64 -mcpu="$cpu" -iterations=100 -bottleneck-analysis "$tmp/fast.s" \
        2> /dev/null | awk -v cpu="$cpu" '
        function flush() {
            if (region == "") return
            printf "%-10s %-16s %8d %8.1f %8s  %s\n", region, cpu, instr / 100, cycles / 100, rthru, ports
        }
        /Code Region - / { flush(); region = $NF; sub(/^round_/, "", region); ports = ""; inb = 0 }
        /^Instructions:/ { instr = $2 }
        /^Total Cycles:/ { cycles = $3 }
        /^Block RThroughput:/ { rthru = $3 }
        /Resource Pressure +\[/ { inb = 1; next }
        /Data Dependencies:/ { inb = 0 }
        inb && /^  - / {
            share = $0; sub(/.*\[ */, "", share); sub(/%.*/, "", share)
            if (share + 0 >= 40) ports = ports (ports == "" ? "" : ", ") $2 " " share "%"
        }
        END { flush() }'
done
