#!/bin/sh
# Obtains the ChEMBL IC50 346-target matrix and its standard 20% test split into
# data/chembl/ (not committed: CC BY-SA 3.0 data), from a local mirror directory
# when there is one, else from the public URL; verifies every file's sha256.
#
#   data/fetch-chembl.sh [--mirror DIR] [--dest DIR] [--download]
#
# Mirror: --mirror DIR, else $HYMPI_CHEMBL_MIRROR, else ../shared/data/chembl
# relative to the project root. --download skips the mirror.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
mirror=${HYMPI_CHEMBL_MIRROR:-$root/../shared/data/chembl}
dest=$root/data/chembl
download=0
base_url=https://homes.esat.kuleuven.be/~jsimm

while [ $# -gt 0 ]; do
  case $1 in
    --mirror) mirror=$2; shift 2 ;;
    --dest) dest=$2; shift 2 ;;
    --download) download=1; shift ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fetch-chembl.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done

# sha256 of the published files (checked against the CI mirror).
sha_of() {
  case $1 in
    chembl-IC50-346targets.mm) echo 10c3e1f989a7a415a585a175ed59eeaa33eff66272d47580374f26342cddaa88 ;;
    chembl-IC50-test.mm) echo 3b4b07661639135874306130f94eb0d259aa1026e509e67be891ab4bacfb79bf ;;
    chembl-IC50-train.mm) echo 4a7892d6b5523af7fe92c7a2c32266a77724260da05cf01ac3b7a7d4fcc327b0 ;;
  esac
}
files="chembl-IC50-346targets.mm chembl-IC50-test.mm chembl-IC50-train.mm"

verify() {  # file -> 0 if its sha256 matches
  want=$(sha_of "$(basename "$1")")
  got=$(sha256sum "$1" | cut -d' ' -f1)
  if [ "$got" != "$want" ]; then
    echo "fetch-chembl.sh: sha256 mismatch for $1" >&2
    echo "  expected $want" >&2
    echo "  got      $got" >&2
    return 1
  fi
}

# The train split is the whole matrix minus the test entries (the public site has
# no train file): same header style as the mirror's, entries in the whole matrix's order.
derive_train() {
  awk 'FNR == NR { if ($0 !~ /^%/ && ++n > 1) test[$1 " " $2] = 1; next }
       /^%/ { next }
       !seen++ { rows = $1; cols = $2; next }
       !(($1 " " $2) in test) { line[++k] = $1 " " $2 " " $3 }
       END { print "%%MatrixMarket matrix coordinate real general"; print rows, cols, k;
             for (i = 1; i <= k; i++) print line[i] }' \
    "$dest/chembl-IC50-test.mm" "$dest/chembl-IC50-346targets.mm" > "$dest/chembl-IC50-train.mm.tmp"
  mv "$dest/chembl-IC50-train.mm.tmp" "$dest/chembl-IC50-train.mm"
}

mkdir -p "$dest"
if [ "$download" = 0 ] && [ -d "$mirror" ]; then
  echo "fetch-chembl.sh: copying from mirror $mirror"
  for f in $files; do
    [ -f "$mirror/$f" ] || { echo "fetch-chembl.sh: $mirror/$f is missing" >&2; exit 1; }
    cp "$mirror/$f" "$dest/$f.tmp" && chmod u+w "$dest/$f.tmp" && mv "$dest/$f.tmp" "$dest/$f"
  done
else
  echo "fetch-chembl.sh: downloading from $base_url"
  for f in chembl-IC50-346targets.mm chembl-IC50-test.mm; do
    curl -fL --retry 3 -o "$dest/$f.tmp" "$base_url/$f" || {
      echo "fetch-chembl.sh: download of $base_url/$f failed" >&2; exit 1; }
    mv "$dest/$f.tmp" "$dest/$f"
  done
  derive_train
fi

status=0
for f in $files; do
  verify "$dest/$f" || status=1
done
if [ $status -ne 0 ]; then
  echo "fetch-chembl.sh: verification failed; the files in $dest are not the published ones" >&2
  exit 1
fi
echo "fetch-chembl.sh: $dest holds the verified ChEMBL IC50 346-target matrix, train and test split"
