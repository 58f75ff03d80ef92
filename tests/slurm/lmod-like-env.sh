# A HYMPI_ENV_SCRIPT like Lmod's init and many site scripts: it reads variables that may be
# unset, so the jobscripts must not source it under set -u (#19.9).
if [ -z "$HYMPI_TEST_SURELY_UNSET_VARIABLE" ]; then export HYMPI_TEST_ENV_SCRIPT_RAN=1; fi
