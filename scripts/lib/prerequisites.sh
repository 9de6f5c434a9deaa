# Installs what building and testing rws needs with apt (rws builds on Linux only).
# Sourced by scripts/test, scripts/demo and scripts/bench.
# shellcheck shell=bash

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
    # The third test server: asyncssh (scripts/lib/asyncssh_server.py), with Debian's Python,
    # which the package installs the module for (a python3 earlier on PATH may lack it).
    { [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import asyncssh' >/dev/null 2>&1; } || missing+=(python3-asyncssh)
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
# claude-agent-sdk wheel (~170 MB), unpacked once into a cache folder keyed by version. Two are
# installed: the pinned release (scripts/lib/claude-agent-sdk-pinned: a bump is a one-line change)
# and the newest on PyPI, so that a Claude Code release that changes what users see fails a test
# the day it is published. A failure to find or fetch either fails the run: no silent fallback.
# The newest is written to the folder's `current` file, which ClaudeCodeCLI reads (the tests'
# RWS_CLAUDE_AGENT_SDK_VERSION overrides it); `claude_sdk_pinned` and `claude_sdk_newest` say which.
# RWS_CLAUDE_AGENT_SDK_VERSION=X.Y.Z installs and tests that version alone.
CLAUDE_AGENT_SDK_CACHE="$HOME/.cache/rws-test/claude-agent-sdk"
claude_sdk_pinned=$(sed -n '/^[0-9]/{p;q;}' "$(dirname "${BASH_SOURCE[0]}")/claude-agent-sdk-pinned")

_newest_claude_agent_sdk() {
    local limit=()
    command -v timeout >/dev/null 2>&1 && limit=(timeout 60)
    ${limit[@]+"${limit[@]}"} python3 -m pip index versions claude-agent-sdk 2>/dev/null \
        | sed -n 's/^claude-agent-sdk (\([0-9.]*\))$/\1/p' | head -1 || true
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
        echo "error: could not fetch claude-agent-sdk $version from PyPI; retry with:" \
            "python3 -m pip download --no-deps --only-binary=:all: claude-agent-sdk==$version" >&2
        exit 1
    fi
    rm -rf "$folder.partial"
    mkdir -p "$folder.partial"
    python3 -m zipfile -e "$download"/claude_agent_sdk-*.whl "$folder.partial"
    chmod +x "$folder.partial/claude_agent_sdk/_bundled/claude"
    rm -rf "$download" "$folder"
    mv "$folder.partial" "$folder"
}

_claude_cli_version() {
    "$CLAUDE_AGENT_SDK_CACHE/$1/claude_agent_sdk/_bundled/claude" --version
}

install_claude_cli() {
    command -v python3 >/dev/null 2>&1 || _apt_install python3 python3-pip
    python3 -m pip --version >/dev/null 2>&1 || _apt_install python3-pip
    if [ -n "${RWS_CLAUDE_AGENT_SDK_VERSION:-}" ]; then
        claude_sdk_pinned=$RWS_CLAUDE_AGENT_SDK_VERSION
        claude_sdk_newest=$RWS_CLAUDE_AGENT_SDK_VERSION
    else
        claude_sdk_newest="$(_newest_claude_agent_sdk)"
        if [ -z "$claude_sdk_newest" ]; then
            echo "error: PyPI did not say which claude-agent-sdk is the newest; retry with:" \
                "python3 -m pip index versions claude-agent-sdk" >&2
            exit 1
        fi
    fi
    _install_claude_agent_sdk "$claude_sdk_pinned"
    _install_claude_agent_sdk "$claude_sdk_newest"
    mkdir -p "$CLAUDE_AGENT_SDK_CACHE"
    printf '%s\n' "$claude_sdk_newest" > "$CLAUDE_AGENT_SDK_CACHE/current"
    echo "Claude Code CLI, newest: $(_claude_cli_version "$claude_sdk_newest") (claude-agent-sdk $claude_sdk_newest)" >&2
    echo "Claude Code CLI, pinned: $(_claude_cli_version "$claude_sdk_pinned") (claude-agent-sdk $claude_sdk_pinned)" >&2
}
