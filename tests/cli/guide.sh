#!/bin/sh
# guide.sh MYTRITON GUIDE.md WORK_DIR: run every command of the user guide
# as written, in a fresh folder, with `mytriton` on PATH (as the guide's
# installation step puts it there).
#
# The guide is plain Markdown; HTML comments (invisible when rendered)
# tell this script what the blocks are:
#   <!-- file: NAME -->    the next fenced block is a file the reader
#                          saves as NAME: it is written here
#   ```sh                  each line is a command (blank lines and
#                          `# ...` lines aside); it must exit 0
#   <!-- test: gpu -->     the next ```sh block needs a GPU: without one
#                          its commands must fail with exit 2 and the
#                          guide's "no CUDA driver"/"no CUDA device" message
#   <!-- test: skip REASON -->  the next block is not run here (the
#                          installation itself, run by the cli.install
#                          test and by hand)
# Fenced blocks without a language (output shown to the reader) are not run.
set -u
MT=$1 GUIDE=$2 W=$3
mkdir -p "$W/bin" "$W/guide"
ln -sf "$MT" "$W/bin/mytriton"
PATH="$W/bin:$PATH"
export PATH
# the Python package, as the installation step puts it on Python's path,
# and a python3 with numpy (MT_PYTHON, Debian's)
if [ -n "${MT_BUILD_DIR:-}" ]; then
    PYTHONPATH="$MT_BUILD_DIR/python"
    export PYTHONPATH
fi
# (in a sanitizer build, with the ASan runtime the extension needs preloaded)
if [ -n "${MT_PYTHON_PRELOAD:-}" ]; then
    printf '#!/bin/sh\nLD_PRELOAD=%s ASAN_OPTIONS=detect_leaks=0 exec %s "$@"\n' \
        "$MT_PYTHON_PRELOAD" "${MT_PYTHON:-/usr/bin/python3}" > "$W/bin/python3"
    chmod +x "$W/bin/python3"
elif [ -n "${MT_PYTHON:-}" ]; then
    ln -sf "$MT_PYTHON" "$W/bin/python3"
fi
cd "$W/guide" || exit 1

# Split the guide into files and command scripts: blocks/NNN.file (a file
# to write, its name on the first line), NNN.sh or NNN.gpu (one command).
rm -rf "$W/blocks"
mkdir "$W/blocks"
awk -v out="$W/blocks" '
    function next_name(ext) { n++; return sprintf("%s/%03d.%s", out, n, ext) }
    /^<!-- file: .* -->$/ { file = $3; next }
    /^<!-- test: gpu -->$/ { gpu = 1; next }
    /^<!-- test: skip/ { skip = 1; next }
    /^```/ {
        if (!inblock) {
            inblock = 1
            lang = substr($0, 4)
            if (file != "") { target = next_name("file"); print file > target }
            next
        }
        inblock = 0; file = ""; gpu = 0; skip = 0; target = ""
        next
    }
    inblock && target != "" { print > target; next }
    inblock && lang == "sh" && !skip && $0 !~ /^[ \t]*(#|$)/ {
        cmd = next_name(gpu ? "gpu" : "sh")
        print > cmd
        close(cmd)
    }
' "$GUIDE"

ran=0
for f in "$W"/blocks/*; do
    case "$f" in
    *.file)
        name=$(head -1 "$f")
        mkdir -p "$(dirname "$name")"
        tail -n +2 "$f" > "$name"
        ;;
    *.sh|*.gpu)
        cmd=$(cat "$f")
        sh -c "$cmd" > "$W/cmd.out" 2> "$W/cmd.err"
        rc=$?
        ran=$((ran + 1))
        if [ "$rc" != 0 ]; then
            case "$f" in
            *.gpu)
                if [ "$rc" = 2 ] && grep -q -e "no CUDA driver" -e "no CUDA device" "$W/cmd.err"; then
                    continue
                fi
                ;;
            esac
            echo "FAIL guide: \`$cmd\` exited $rc"
            echo "--- stdout"; cat "$W/cmd.out"
            echo "--- stderr"; cat "$W/cmd.err"
            exit 1
        fi
        ;;
    esac
done
if [ "$ran" -lt 5 ]; then
    echo "FAIL guide: only $ran commands found in $GUIDE"
    exit 1
fi
echo "guide: $ran commands ran as written"
