# Sourced first by every script in scripts/: `-h` or `--help` prints the script's header comment
# (its usage: what it does and how it is run) and exits.
# shellcheck shell=bash
show_usage_on_help() {
    case "${1:-}" in
        -h | --help) ;;
        *) return 0 ;;
    esac
    # The comment lines after the shebang, up to the first line that is not a comment.
    sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"
    exit 0
}
