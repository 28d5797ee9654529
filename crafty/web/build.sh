#!/usr/bin/env bash
# Builds crafty (and the samples) for the browser into a folder a static
# server can serve: crafty/web/dist/ (or $TAOS_WEB_OUT). With --serve, serves it
# afterwards on http://localhost:${PORT:-8080}/.
#
#   crafty/web/build.sh            # build crafty/web/dist/
#   crafty/web/build.sh --serve    # build, then serve it
#   crafty/web/build.sh --crafty   # crafty only (what the browser tests need)
#   crafty/web/build.sh --no-wasm-opt   # skip wasm-opt (a bigger wasm, minutes sooner)
#   TAOS_WASM_OPT_SAMPLES=0 crafty/web/build.sh   # optimise crafty only (what CI does:
#                                   # the samples' size is not measured, a minute sooner)
#
# Both go through the `taos` tool (tools/taos, `taos web build`), the same
# build path a game of one's own takes; it adds rustup's
# wasm32-unknown-unknown target if missing, installs wasm-bindgen-cli at the
# version Cargo.lock pins (`cargo install`, about 4 minutes, once), and runs
# wasm-opt where a usable one exists (binaryen 116+ on PATH, or npm's
# binaryen package, installed into ~/.cache; skipped with a note otherwise).
# --serve serves the folder with `taos web serve`.
set -euo pipefail
cd "$(dirname "$0")/../.."

serve=false
samples=true
optimize=true
for arg in "$@"; do
  case "$arg" in
    --serve) serve=true ;;
    --crafty) samples=false ;;
    --no-wasm-opt) optimize=false ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "crafty/web/build.sh: unknown option $arg (try --help)" >&2; exit 2 ;;
  esac
done

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/taos-target}"
out="${TAOS_WEB_OUT:-crafty/web/dist}"
say() { printf '== %s\n' "$*" >&2; }
taos() { cargo run -q -p taos_cli --bin taos -- "$@"; }

opt_flags=()
$optimize || opt_flags=(--no-wasm-opt)
samples_opt_flags=("${opt_flags[@]}")
[ "${TAOS_WASM_OPT_SAMPLES:-1}" != 0 ] || samples_opt_flags=(--no-wasm-opt)

rm -rf "$out"
mkdir -p "$out"
# The tool itself first (a dev build, seconds).
cargo build -q -p taos_cli --bin taos
# crafty's cargo run also builds the samples' binary (--also-build): the two
# link side by side, as one cargo run (on 2 cores a separate run for the
# samples cost 3.5 more minutes).
also=()
$samples && also=(--also-build taos_samples:samples_web)
taos web build -p crafty --bin crafty --page crafty/web/crafty.html \
  --out "$out/crafty" --no-assets "${opt_flags[@]}" "${also[@]}" &
crafty_job=$!
if $samples; then
  # The samples' run starts once crafty's wasm is built (its wasm-bindgen
  # output appears): its cargo finds everything built (the samples ask for
  # crafty's web-sys features, samples/Cargo.toml, so the second run's
  # feature set is the first's), no tool is installed twice at once, and
  # its wasm-bindgen (and wasm-opt) run beside crafty's wasm-opt.
  while [ ! -e "$out/crafty/crafty_bg.wasm" ] && kill -0 "$crafty_job" 2>/dev/null; do sleep 1; done
  if [ -e "$out/crafty/crafty_bg.wasm" ]; then
    taos web build -p taos_samples --bin samples_web --page samples/web/samples.html \
      --out "$out/samples" --no-assets "${samples_opt_flags[@]}" &
    samples_job=$!
    wait "$samples_job"
  fi
fi
wait "$crafty_job"

cp crafty/web/index.html crafty/web/page.css "$out/"
say "built $out/"

if $serve; then
  exec cargo run -q -p taos_cli --bin taos -- web serve "$out" --port "${PORT:-8080}"
fi
