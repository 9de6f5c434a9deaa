# Installs what building and testing rws needs with apt (rws builds on Linux only).
# Sourced by scripts/test, scripts/demo and scripts/bench.

_apt_install() {
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "installing: $*" >&2
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

install_prerequisites() {
    if ! command -v swift >/dev/null 2>&1; then
        echo "error: swift is not on PATH: install Swift 6 from https://www.swift.org/install" >&2
        exit 1
    fi
    if [ "$(uname)" != "Linux" ]; then
        echo "error: rws builds on Linux (glibc) only; this is $(uname)" >&2
        exit 1
    fi
    local missing=()
    command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
    pkg-config --exists libssh2 2>/dev/null || missing+=(libssh2-1-dev)
    # zlib: rws gunzips session bytes the box compressed (libssh2-1-dev usually brings it).
    pkg-config --exists zlib 2>/dev/null || missing+=(zlib1g-dev)
    [ -x /usr/sbin/sshd ] || missing+=(openssh-server)
    # The second test server (dropbear: commands are not process-group leaders there).
    { [ -x /usr/sbin/dropbear ] && command -v dropbearkey >/dev/null 2>&1; } || missing+=(dropbear-bin)
    # The file tests run one server with the stand-alone sftp-server, as root without the
    # capabilities that bypass file permissions (setpriv).
    [ -x /usr/lib/openssh/sftp-server ] || missing+=(openssh-sftp-server)
    command -v setpriv >/dev/null 2>&1 || missing+=(util-linux)
    command -v ssh-keygen >/dev/null 2>&1 || missing+=(openssh-client)
    command -v git >/dev/null 2>&1 || missing+=(git)
    command -v tmux >/dev/null 2>&1 || missing+=(tmux)
    # Persistent shells: tmux first, GNU screen as the fallback the tests also prove.
    command -v screen >/dev/null 2>&1 || missing+=(screen)
    command -v pkill >/dev/null 2>&1 || missing+=(procps)
    command -v busybox >/dev/null 2>&1 || missing+=(busybox)
    # Every remote script is checked with shellcheck and run under dash, bash and BusyBox sh.
    command -v shellcheck >/dev/null 2>&1 || missing+=(shellcheck)
    [ -x /usr/bin/dash ] || missing+=(dash)
    if [ ${#missing[@]} -gt 0 ]; then
        if ! command -v apt-get >/dev/null 2>&1; then
            echo "error: missing ${missing[*]} and no apt-get to install them" >&2
            exit 1
        fi
        _apt_install "${missing[@]}"
    fi
}

# The real Claude Code CLI for the conversation and oracle tests: the one bundled in the
# claude-agent-sdk wheel (~170 MB), unpacked once into a cache folder keyed by version. The newest
# release on PyPI is taken when PyPI answers, so a new Claude Code record type shows up as a
# failing test (ClaudeOracleTests); offline, the newest cached version, else the pinned one.
# The version chosen is written to the folder's `current` file, which ClaudeCodeCLI reads.
# RWS_CLAUDE_AGENT_SDK_VERSION=X.Y.Z picks a version instead.
CLAUDE_AGENT_SDK_PINNED=0.2.187
CLAUDE_AGENT_SDK_CACHE="$HOME/.cache/rws-test/claude-agent-sdk"

_newest_claude_agent_sdk() {
    local limit=()
    command -v timeout >/dev/null 2>&1 && limit=(timeout 30)
    ${limit[@]+"${limit[@]}"} python3 -m pip index versions claude-agent-sdk 2>/dev/null \
        | sed -n 's/^claude-agent-sdk (\([0-9.]*\))$/\1/p' | head -1 || true  # offline: nothing
}

_newest_cached_claude_agent_sdk() {
    local folder
    for folder in "$CLAUDE_AGENT_SDK_CACHE"/*/claude_agent_sdk/_bundled/claude; do
        [ -x "$folder" ] || continue
        folder="${folder%/claude_agent_sdk/_bundled/claude}"
        basename "$folder"
    done | sort -V | tail -1
}

_install_claude_agent_sdk() {
    local version="$1"
    local folder="$CLAUDE_AGENT_SDK_CACHE/$version"
    [ -x "$folder/claude_agent_sdk/_bundled/claude" ] && return 0
    local download
    download="$(mktemp -d)"
    echo "installing: claude-agent-sdk $version (the Claude Code CLI) into $folder" >&2
    if ! python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$download" "claude-agent-sdk==$version"; then
        rm -rf "$download"
        return 1
    fi
    rm -rf "$folder.partial"
    mkdir -p "$folder.partial"
    python3 -m zipfile -e "$download"/claude_agent_sdk-*.whl "$folder.partial"
    chmod +x "$folder.partial/claude_agent_sdk/_bundled/claude"
    rm -rf "$download" "$folder"
    mv "$folder.partial" "$folder"
}

install_claude_cli() {
    command -v python3 >/dev/null 2>&1 || _apt_install python3 python3-pip
    python3 -m pip --version >/dev/null 2>&1 || _apt_install python3-pip
    local version="${RWS_CLAUDE_AGENT_SDK_VERSION:-}"
    [ -n "$version" ] || version="$(_newest_claude_agent_sdk)"
    if [ -z "$version" ] || ! _install_claude_agent_sdk "$version"; then
        [ -z "$version" ] || echo "warning: could not install claude-agent-sdk $version; using a cached or the pinned version" >&2
        version="$(_newest_cached_claude_agent_sdk)"
        [ -n "$version" ] || version="$CLAUDE_AGENT_SDK_PINNED"
        _install_claude_agent_sdk "$version"
    fi
    mkdir -p "$CLAUDE_AGENT_SDK_CACHE"
    printf '%s\n' "$version" > "$CLAUDE_AGENT_SDK_CACHE/current"
    echo "Claude Code CLI: $("$CLAUDE_AGENT_SDK_CACHE/$version/claude_agent_sdk/_bundled/claude" --version) (claude-agent-sdk $version)" >&2
}
