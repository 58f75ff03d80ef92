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
