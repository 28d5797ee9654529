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
# Needs: rustup's wasm32-unknown-unknown target (added if missing),
# wasm-bindgen-cli at the version Cargo.lock pins (installed with
# `cargo install` if missing, about 4 minutes once), and optionally
# wasm-opt (binaryen 116+ on PATH, or npm's binaryen package, installed into
# ~/.cache; skipped with a note otherwise). Python 3 serves the folder.
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
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "crafty/web/build.sh: unknown option $arg (try --help)" >&2; exit 2 ;;
  esac
done

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/taos-target}"
out="${TAOS_WEB_OUT:-crafty/web/dist}"
wasm_dir="$CARGO_TARGET_DIR/wasm32-unknown-unknown/web"
say() { printf '== %s\n' "$*" >&2; }

# The JS glue must come from the CLI matching the wasm-bindgen crate exactly.
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[ -n "$want" ] || { echo "crafty/web/build.sh: wasm-bindgen is not in Cargo.lock" >&2; exit 1; }
have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)
if [ "$have" != "$want" ]; then
  say "installing wasm-bindgen-cli $want (found: ${have:-none}; one-off, a few minutes)"
  # Not --locked: the CLI's own lockfile pins crates that no longer build.
  CARGO_TARGET_DIR="$HOME/.cache/wasm-bindgen-cli-target" \
    cargo install wasm-bindgen-cli --version "$want" --quiet
fi
if command -v rustup >/dev/null; then
  rustup target list --installed | grep -q '^wasm32-unknown-unknown$' \
    || rustup target add wasm32-unknown-unknown
fi
# wasm-opt: one on PATH if it is recent enough (binaryen before 116 breaks
# wasm-bindgen's reference-type tables: Debian 12 ships 108), else npm's
# binaryen package at a pinned version, else none (the build says so).
binaryen_version=132.0.0
wasm_opt=""
path_version=$(wasm-opt --version 2>/dev/null | awk '{ print $3 }' || true)
if [ -n "$path_version" ] && [ "$path_version" -ge 116 ] 2>/dev/null; then
  wasm_opt=wasm-opt
else
  npm_opt="$HOME/.cache/taos-binaryen/node_modules/.bin/wasm-opt"
  if $optimize && [ ! -x "$npm_opt" ] && command -v npm >/dev/null; then
    say "installing binaryen $binaryen_version from npm for wasm-opt"
    npm install --silent --prefix "$HOME/.cache/taos-binaryen" "binaryen@$binaryen_version" >/dev/null 2>&1 || true
  fi
  [ -x "$npm_opt" ] && wasm_opt="$npm_opt"
fi
if ! $optimize; then
  say "--no-wasm-opt: the wasm is left as rustc made it"
elif [ -z "$wasm_opt" ]; then
  say "no usable wasm-opt (needs binaryen 116+ on PATH, or npm): the wasm is left as rustc made it"
fi
$optimize || wasm_opt=""

targets=(-p crafty --bin crafty)
if $samples; then targets+=(-p taos_samples --bin samples_web); fi
say "cargo build --profile web --target wasm32-unknown-unknown ${targets[*]}"
cargo build --profile web --target wasm32-unknown-unknown "${targets[@]}"

rm -rf "$out"
mkdir -p "$out"
# Rust's wasm32 target emits these post-MVP features; wasm-opt must accept them.
opt_features=(--enable-bulk-memory --enable-sign-ext --enable-mutable-globals
  --enable-nontrapping-float-to-int --enable-reference-types --enable-multivalue)
# wasm-bindgen, then wasm-opt (single-threaded; the binaries' runs go side
# by side on a multi-core machine), then the size report.
package() {
  local name=$1 dir=$2
  mkdir -p "$out/$dir"
  wasm-bindgen --target web --no-typescript --out-dir "$out/$dir" "$wasm_dir/$name.wasm"
  local wasm="$out/$dir/${name}_bg.wasm"
  if [ -n "$wasm_opt" ] && { [ "$name" != samples_web ] || [ "${TAOS_WASM_OPT_SAMPLES:-1}" != 0 ]; }; then
    say "wasm-opt -Os $name"
    "$wasm_opt" -Os "${opt_features[@]}" "$wasm" -o "$wasm.opt"
    mv "$wasm.opt" "$wasm"
  fi
  local raw gz br
  raw=$(stat -c %s "$wasm")
  gz=$(gzip -9 -c "$wasm" | wc -c)
  br=$(command -v brotli >/dev/null && brotli -q 11 -c "$wasm" | wc -c || echo "?")
  printf '%s.wasm: %s bytes raw, %s gzip, %s brotli\n' "$name" "$raw" "$gz" "$br" | tee "$out/$dir/size.txt" >&2
}
package crafty crafty &
crafty_job=$!
if $samples; then
  package samples_web samples &
  samples_job=$!
  wait "$samples_job"
  cp samples/web/samples.html "$out/samples/index.html"
fi
wait "$crafty_job"
cp crafty/web/crafty.html "$out/crafty/index.html"

cp crafty/web/index.html crafty/web/page.css "$out/"
say "built $out/"

if $serve; then
  port="${PORT:-8080}"
  say "serving $out/ on http://localhost:$port/ (Ctrl-C stops)"
  exec python3 -m http.server --directory "$out" "$port"
fi
