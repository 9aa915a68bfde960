#!/bin/sh
# check_fragments.sh MYTRITON FRAGMENT ROOT
# Compile the kernel named on the fragment's first line and check that the
# fragment's other lines appear in the output, in order (whitespace at the
# ends of lines ignored). Exit 1 with a report on the first missing line.
set -eu
mytriton=$1 frag=$2 root=$3
read -r _hash file kernel rest <"$frag"
case "$frag" in
  *.cu) emit="cuda --lowering seed" ;;  # the seed documents' CUDA is the seed lowering's
  *) emit=ssa ;;
esac
set --
for d in $rest; do set -- "$@" -D "$d"; done
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# shellcheck disable=SC2086
if ! "$mytriton" compile "$root/$file" --kernel "$kernel" --emit $emit "$@" >"$out"; then
  echo "FAIL: $frag: compiling $file:$kernel failed" >&2
  exit 1
fi
awk -v frag="$frag" '
  function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t\r]+$/, "", s); return s }
  NR == FNR { if (FNR > 1) want[++n] = trim($0); next }
  { got[++m] = trim($0) }
  END {
    j = 1
    for (i = 1; i <= n; i++) {
      while (j <= m && got[j] != want[i]) j++
      if (j > m) {
        printf "FAIL: %s: line %d not found in order: %s\n--- output ---\n", frag, i + 1, want[i] > "/dev/stderr"
        for (k = 1; k <= m; k++) print got[k] > "/dev/stderr"
        exit 1
      }
      j++
    }
    printf "ok: %s (%d lines)\n", frag, n
  }' "$frag" "$out"
