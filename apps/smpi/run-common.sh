# Sourced by the run-*.sh scripts: option reading and the SMPI build lookup they share.
# Needs $script (the script's name for messages) and, for require_smpi_bin, $root
# (and $ranks, when the script has it, for the memory-map check).

# An option with a value, "--min-size 8" or "-n 8", sets the variable of its name
# (min_size, n) when that name is in $valued (the script's list); shifted = the
# words used, 0 when "$1" is not such an option.
value_option() {
  local name="${1#-}"
  name="${name#-}"
  name="${name//-/_}"
  shifted=0
  case " $valued " in
    *" $name "*)
      [ $# -ge 2 ] || { echo "$script: $1 needs a value" >&2; exit 2; }
      printf -v "$name" '%s' "$2"
      shifted=2 ;;
  esac
}

# Sets bin to an SMPI build's bin/ holding EXE (--bin, else the usual build folders);
# exits 77 (skip) without smpirun or such a build.
require_smpi_bin() {  # require_smpi_bin EXE
  local d
  if ! command -v smpirun >/dev/null; then echo "$script: smpirun not found (apt install simgrid)" >&2; exit 77; fi
  if [ -z "$bin" ]; then
    for d in "$root/build-smpi/bin" "$root/build/smpi/bin"; do [ -x "$d/$1" ] && bin="$d" && break; done
  fi
  if [ -z "$bin" ] || [ ! -x "$bin/$1" ]; then
    echo "$script: no SMPI $1 (configure with -DHYMPI_SMPI=ON, or pass --bin)" >&2; exit 77
  fi
  warn_map_count
}

# sim_layer_preload: smpirun's arguments that preload the simulated MPI layer (a program run
# with smpi/privatization:no resolves MPI_* where SimGrid's come first: glue/sim_entry_points.cpp).
# Sets the array preload; exits 77 if the SMPI build has no layer library.
sim_layer_preload() {
  local lib="$bin/../libhympi_sim_layer.so"
  [ -f "$lib" ] || { echo "$script: no $lib (the SMPI build's simulated MPI layer)" >&2; exit 77; }
  preload=(-wrapper "env LD_PRELOAD=$(cd "$(dirname "$lib")" && pwd)/libhympi_sim_layer.so")
}

# SMPI privatizes a copy of the program per rank, about 8 memory maps each: above
# the kernel's limit a large run dies in dlopen with a message that names the compiler.
warn_map_count() {
  local maps
  maps=$(cat /proc/sys/vm/max_map_count 2>/dev/null || echo 0)
  [[ "${ranks:-}" =~ ^[0-9]+$ ]] && [ "$maps" -gt 0 ] && [ $((ranks * 8)) -gt "$maps" ] || return 0
  echo "$script: warning: vm.max_map_count is $maps, about 8 per simulated rank are needed for $ranks ranks;" \
    "if SMPI fails in dlopen ('Cannot allocate memory'), raise it: sysctl -w vm.max_map_count=$((ranks * 16))" >&2
}

# Reads the whole command line: value options (value_option), the script's flags
# (its flag_option FLAG returns 1 for an unknown one; optional), -h/--help (its usage).
read_options() {
  while [ $# -gt 0 ]; do
    value_option "$@"
    if [ "$shifted" -gt 0 ]; then shift "$shifted"; continue; fi
    case "$1" in
      -h|--help) usage; exit 0 ;;
    esac
    if declare -F flag_option >/dev/null && flag_option "$1"; then shift; continue; fi
    echo "$script: unknown option '$1'" >&2; usage >&2; exit 2
  done
}

# Copies FILE... into DIR through a private name and a rename: two runs writing into one
# results folder may copy the same platform at once (a plain cp then fails "File exists").
keep_copy() {  # keep_copy DIR FILE...
  local dir="$1" f; shift
  for f in "$@"; do
    cp "$f" "$dir/.$(basename "$f").$BASHPID" && mv -f "$dir/.$(basename "$f").$BASHPID" "$dir/$(basename "$f")" || return 1
  done
}

# ---- Fidelity settings (apps/smpi/README.md "Fidelity settings"; issue 41) ----------------
# The options every run script takes for them (add to $valued; read_options sets the
# variables of these names, empty = not given):
fidelity_options="fidelity sharing overheads eager_bytes bcast ring_merge"
fidelity_usage() {  # the options' --help lines
  cat <<'USAGE'
  --fidelity SET    faithful | legacy: the preset of the settings below (default: faithful for --machine
                    bgp; elsewhere none: today's behaviour, and rows keep their older columns)
                      faithful  sharing fair, overheads all, eager 1200 B, bcast dcmf  (BG/P as built)
                      legacy    sharing route, overheads smpi, eager 65536 B, bcast smpi:<the script's
                                older default>: the committed rows, regenerated exactly
  --sharing S       fair (0-latency links, hop latency charged per message by the layer) | route
                    (SimGrid's max-min weights flows by route latency)
  --overheads O     all (the layer charges both overheads of every message) | smpi (SMPI's op-cost
                    callbacks: detached or nonblocking sends only)
  --eager-bytes E   sends below E bytes are eager (smpi/send-is-detached-thresh: 0 to 999999999)
  --bcast ALG       dcmf (BG/P's rule by communicator shape) | mpich (the thesis' MPICH rule), both the
                    layer's own MPI_Bcast of charged messages; smpi:ALG or a bare ALG: SMPI's
                    smpi/bcast algorithm (binomial_tree, scatter_LR_allgather, ...)
  --ring-merge S    the layer's ring allgather merges S steps per message (+ S-1 step charges;
                    default 1; needs --bcast dcmf|mpich): a host-time device for scale runs
USAGE
}
# fidelity_setup MACHINE LEGACY_BCAST
#   Checks and resolves the fidelity options of one run of MACHINE; LEGACY_BCAST is SMPI's
#   broadcast algorithm the script used before the settings existed ("" = SMPI's default, no
#   cfg). A bad value exits 2 with a message naming the option ($script: ...). Sets:
#     sharing overheads eager_bytes bcast ring_merge  the resolved values (bcast: dcmf | mpich | smpi:ALG)
#     smpi_bcast         SMPI's smpi/bcast algorithm ("" = its default). With dcmf|mpich it runs
#                        only SMPI's internal broadcasts (communicator creation): binomial_tree
#     smpi_bcast_column  the smpi_bcast column: the algorithm of MPI_Bcast if SMPI's, "-" if the layer's
#     fidelity           faithful | legacy | faithful;KEY=VALUE;... (the settings that differ from faithful)
#     fidelity_in_use    0 for the legacy set, also with the older options (--bcast ALG, --eager-bytes E)
#                        beside --fidelity legacy or alone: rows keep today's columns, so the committed
#                        CSVs regenerate in place; else 1
#     fidelity_cfg       ( smpirun --cfg arguments: smpi/bcast, smpi/send-is-detached-thresh )
#     fidelity_platform  ( make_platform.py arguments: --sharing fair, or none )
#     fidelity_labels    ( the row columns fidelity= sharing= overheads= eager_bytes= bcast= ring_merge= );
#                        not in use: ( eager_bytes=E ) if --eager-bytes was given, else empty
#   and exports HYMPI_SIM_SHARING, HYMPI_SIM_OVERHEADS, HYMPI_SIM_BCAST, HYMPI_SIM_RING_MERGE for
#   the simulated MPI layer (apps/smpi/glue/sim_settings.hpp); not in use: unset (as before).
fidelity_setup() {  # fidelity_setup MACHINE LEGACY_BCAST
  local machine="$1" legacy_bcast="$2" preset="${fidelity:-}" given=0 v eager_given="${eager_bytes:+1}"
  # A new option given (--fidelity legacy and the older --bcast ALG do not count: they name today's runs).
  for v in "$sharing" "$overheads" "$ring_merge"; do [ -z "$v" ] || given=1; done
  case "$bcast" in dcmf|mpich|smpi:*) given=1 ;; esac
  case "$preset" in
    "") [ "$machine" = bgp ] && preset=faithful || preset=legacy ;;
    faithful|legacy) ;;
    *) echo "$script: --fidelity must be faithful or legacy, got '$preset'" >&2; exit 2 ;;
  esac
  if [ "$preset" = faithful ] && [ "$machine" != bgp ] && [ "$machine" != bgp-torus ]; then
    echo "$script: --fidelity faithful is BG/P's set (machines bgp, bgp-torus), not $machine; give the settings one by one" >&2
    exit 2
  fi
  # The presets; an option given overrides its preset value.
  local f_sharing=fair f_overheads=all f_eager=1200 f_bcast=dcmf f_merge=1
  local l_bcast="smpi:${legacy_bcast:-default}"
  if [ "$preset" = faithful ]; then
    sharing="${sharing:-fair}"; overheads="${overheads:-all}"; eager_bytes="${eager_bytes:-1200}"; bcast="${bcast:-dcmf}"
  else
    sharing="${sharing:-route}"; overheads="${overheads:-smpi}"; eager_bytes="${eager_bytes:-65536}"; bcast="${bcast:-$l_bcast}"
  fi
  ring_merge="${ring_merge:-1}"
  case "$sharing" in fair|route) ;; *) echo "$script: --sharing must be fair or route, got '$sharing'" >&2; exit 2 ;; esac
  case "$overheads" in all|smpi) ;; *) echo "$script: --overheads must be all or smpi, got '$overheads'" >&2; exit 2 ;; esac
  [[ "$eager_bytes" =~ ^[0-9]+$ ]] && [ "${#eager_bytes}" -le 9 ] ||
    { echo "$script: --eager-bytes must be a byte count (0 to 999999999), got '$eager_bytes'" >&2; exit 2; }
  eager_bytes=$((10#$eager_bytes))
  [[ "$ring_merge" =~ ^[0-9]+$ ]] && [ "${#ring_merge}" -le 6 ] && [ "$((10#$ring_merge))" -ge 1 ] ||
    { echo "$script: --ring-merge must be an integer >= 1, got '$ring_merge'" >&2; exit 2; }
  ring_merge=$((10#$ring_merge))
  local bcast_given="$bcast"
  case "$bcast" in
    dcmf|mpich) smpi_bcast=binomial_tree ;;
    smpi:default) smpi_bcast="" ;;
    smpi:*) smpi_bcast="${bcast#smpi:}" ;;
    *) smpi_bcast="$bcast"; bcast="smpi:$bcast" ;;  # a bare SMPI algorithm: the older --bcast ALG
  esac
  [[ "$smpi_bcast" =~ ^[A-Za-z0-9_]*$ ]] && [ "$bcast" != "smpi:" ] ||
    { echo "$script: --bcast must be dcmf, mpich, smpi:ALG or an SMPI algorithm name, got '$bcast_given'" >&2; exit 2; }
  if [ "$bcast" = dcmf ] && [ "$machine" != bgp ] && [ "$machine" != bgp-torus ]; then
    echo "$script: --bcast dcmf is BG/P's rule (machines bgp, bgp-torus), not $machine" >&2; exit 2
  fi
  if [ "$ring_merge" -gt 1 ] && [[ "$bcast" == smpi:* ]]; then
    echo "$script: --ring-merge merges the layer's ring: it needs --bcast dcmf or mpich, not $bcast" >&2; exit 2
  fi
  if [ "$sharing" = fair ] && [[ "$bcast" == smpi:* ]]; then  # allowed (one setting at a time), but say what it misses
    echo "$script: note: --sharing fair with SMPI's broadcast ($bcast): its messages pay no hop latency (0-latency links;" \
      "only the layer's messages are charged it)" >&2
  fi
  # The fidelity column: a preset's name, or faithful plus what differs from it.
  local diff=""
  [ "$sharing" = "$f_sharing" ] || diff+=";sharing=$sharing"
  [ "$overheads" = "$f_overheads" ] || diff+=";overheads=$overheads"
  [ "$eager_bytes" = "$f_eager" ] || diff+=";eager_bytes=$eager_bytes"
  [ "$bcast" = "$f_bcast" ] || diff+=";bcast=$bcast"
  [ "$ring_merge" = "$f_merge" ] || diff+=";ring_merge=$ring_merge"
  if [ -z "$diff" ]; then fidelity=faithful
  elif [ "$sharing/$overheads/$eager_bytes/$bcast/$ring_merge" = "route/smpi/65536/$l_bcast/1" ]; then fidelity=legacy
  else fidelity="faithful$diff"
  fi
  # In use (the six columns, the layer's variables) unless the run is the legacy set (today's rows,
  # regenerated in today's format), or legacy with only the older --eager-bytes.
  fidelity_in_use=1
  if [ "$sharing/$overheads/$ring_merge" = "route/smpi/1" ] && [[ "$bcast" == smpi:* ]]; then
    [ "$given" = 1 ] && { [ "$eager_bytes" != 65536 ] || [ "$bcast" != "$l_bcast" ]; } || fidelity_in_use=0
  fi
  smpi_bcast_column="${smpi_bcast:-default}"; [[ "$bcast" == smpi:* ]] || smpi_bcast_column=-
  fidelity_cfg=(); fidelity_platform=(); fidelity_labels=()
  [ -z "$smpi_bcast" ] || fidelity_cfg+=(--cfg=smpi/bcast:"$smpi_bcast")
  unset HYMPI_SIM_SHARING HYMPI_SIM_OVERHEADS HYMPI_SIM_BCAST HYMPI_SIM_RING_MERGE
  if [ "$fidelity_in_use" != 1 ]; then  # as before the settings: the eager limit only if given
    [ -z "$eager_given" ] || { fidelity_cfg+=(--cfg=smpi/send-is-detached-thresh:"$eager_bytes"); fidelity_labels=(eager_bytes="$eager_bytes"); }
    return 0
  fi
  fidelity_cfg+=(--cfg=smpi/send-is-detached-thresh:"$eager_bytes")
  [ "$sharing" = route ] || fidelity_platform=(--sharing "$sharing")
  fidelity_labels=(fidelity="$fidelity" sharing="$sharing" overheads="$overheads" eager_bytes="$eager_bytes"
                   bcast="$bcast" ring_merge="$ring_merge")
  export HYMPI_SIM_SHARING="$sharing" HYMPI_SIM_OVERHEADS="$overheads" HYMPI_SIM_RING_MERGE="$ring_merge"
  case "$bcast" in dcmf|mpich) export HYMPI_SIM_BCAST="$bcast" ;; *) export HYMPI_SIM_BCAST=smpi ;; esac
}

# ---- The SUMMA sweeps over G (run-sweep.sh, run-skeleton.sh): the options they share -------
# Their usage: the shared options, the script's own lines (read from stdin), the fidelity options.
sweep_usage() {  # sweep_usage SCRIPT <<USAGE ...
  cat <<USAGE
usage: $1 [options]
  --bin DIR         SMPI build's bin/ (default: \$HYMPI_SMPI_BIN or build-smpi/bin or build/smpi/bin)
  --machine NAME    bgp-torus | bgp | xc40-dragonfly | ib-fattree   (default bgp-torus; bgp: the thesis'
                    BG/P, mesh up to 1024 ranks, the faithful fidelity set unless --fidelity legacy)
  --placement P     block | xyzt (make_platform.py's rank order)  (default block)
  --ranks P         simulated ranks                              (default 256)
  --grid PxQ        process grid, P x Q = --ranks                (default: the most square, P <= Q: 2048 -> 32x64)
  -n N              matrix size                                  (default 8192)
  -b B              block size b = M                             (default 256)
  --steps S         simulated steps of n/b (0 = all)             (default 4)
  --groups LIST     comma list of G or IxJ (I | P, J | Q; a number G takes the model's shape of G,
                    the square one on a square grid) (default: 1,4,16,..,P on a square grid, every G
                    of the model's shapes on another)
USAGE
  cat
  fidelity_usage
}
# Reads the command line of a sweep: the shared options' defaults, then read_options with
# $valued extended by them and the fidelity options. Needs $script and the script's usage.
read_sweep_options() {  # read_sweep_options "$@"
  bin="${HYMPI_SMPI_BIN:-}"; machine=bgp-torus; ranks=256; grid=""; n=8192; b=256; steps=4; groups=""
  placement=block; shm_costs=on; out=""; dry=0; one=0
  fidelity="" sharing="" overheads="" eager_bytes="" bcast="" ring_merge=""
  valued+=" bin machine ranks grid n b steps groups placement shm_costs out $fidelity_options"
  read_options "$@"
}
# The sweep's settings from its options: the fidelity settings (the legacy broadcast
# scatter_LR_allgather on bgp, else binomial_tree), out's default results/simulated/NAME.csv
# (NAME-fidelity.csv with the settings in use), and plan_grid.py's grid and groups as IxJ:
# P, Q, groups, split_list and the array splits; a bad size or group exits 2.
plan_sweep() {  # plan_sweep NAME
  fidelity_setup "$machine" "$([ "$machine" = bgp ] && echo scatter_LR_allgather || echo binomial_tree)"
  [ -n "$out" ] || { out="$root/results/simulated/$1.csv"; [ "$fidelity_in_use" = 0 ] || out="${out%.csv}-fidelity.csv"; }
  local plan
  plan=$(python3 "$here/plan_grid.py" "$script" "$ranks" "$grid" "$n" "$b" "$groups" "$steps") || exit 2
  read -r P Q groups split_list <<< "$plan"
  IFS=, read -r -a splits <<< "$split_list"
}

sweep_platform() {  # sweep_platform WORK: the SUMMA runners' platform, kept beside --out
  # Writes WORK/<machine>-<ranks>[-shmoff][-placement][-sharing].xml and its hostfile, keeps a copy of
  # both in <out's folder>/platforms (a large mesh file: the command that makes it) and sets
  # platform (the file to run) and platform_rec (the record for the rows, relative to the checkout).
  platform="$1/$machine-$ranks.xml"
  [ "$shm_costs" = on ] || platform="$1/$machine-$ranks-shmoff.xml"  # a distinct record of the older platform
  [ "$placement" = block ] || platform="${platform%.xml}-$placement.xml"
  [ "$sharing" = route ] || platform="${platform%.xml}-$sharing.xml"
  python3 "$here/platforms/make_platform.py" "$machine" --ranks "$ranks" --shm-costs "$shm_costs" \
    --placement "$placement" "${fidelity_platform[@]}" --out "$platform" >/dev/null
  mkdir -p "$(dirname "$out")"
  local keep; keep="$(dirname "$out")/platforms"; mkdir -p "$keep"
  keep_copy "$keep" "${platform%.xml}.hosts"
  platform_rec="$(cd "$keep" && pwd)/$(basename "$platform")"
  if [ "$(stat -c %s "$platform")" -gt 200000 ]; then  # a mesh's explicit routes (0.6-14 MB): keep the command
    echo "apps/smpi/platforms/make_platform.py $machine --ranks $ranks --shm-costs $shm_costs --placement $placement${fidelity_platform[*]:+ ${fidelity_platform[*]}}" \
      > "$keep/$(basename "$platform").cmd"
    platform_rec="$platform_rec.cmd"
  else
    keep_copy "$keep" "$platform"
  fi
  platform_rec="${platform_rec#"$root"/}"
}
