# Installs what building and testing rws needs, with the platform's package manager.
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
    if [ "$(uname)" = "Darwin" ]; then
        command -v brew >/dev/null 2>&1 || { echo "error: Homebrew is needed to install libssh2 (https://brew.sh)" >&2; exit 1; }
        brew list libssh2 >/dev/null 2>&1 || brew install libssh2
        return
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
    if [ ${#missing[@]} -gt 0 ]; then
        if ! command -v apt-get >/dev/null 2>&1; then
            echo "error: missing ${missing[*]} and no apt-get to install them" >&2
            exit 1
        fi
        _apt_install "${missing[@]}"
    fi
}

# The real Claude Code CLI for the conversation tests: the one bundled in the claude-agent-sdk
# wheel (~170 MB), unpacked once into a cache folder keyed by version. Keep the version in step
# with ClaudeCodeCLI.sdkVersion (Sources/RWSTestSupport/ClaudeCodeCLI.swift).
CLAUDE_AGENT_SDK_VERSION=0.2.187

install_claude_cli() {
    local folder="$HOME/.cache/rws-test/claude-agent-sdk/$CLAUDE_AGENT_SDK_VERSION"
    local program="$folder/claude_agent_sdk/_bundled/claude"
    [ -x "$program" ] && return
    command -v python3 >/dev/null 2>&1 || _apt_install python3 python3-pip
    python3 -m pip --version >/dev/null 2>&1 || _apt_install python3-pip
    local download
    download="$(mktemp -d)"
    echo "installing: claude-agent-sdk $CLAUDE_AGENT_SDK_VERSION (the Claude Code CLI) into $folder" >&2
    python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$download" "claude-agent-sdk==$CLAUDE_AGENT_SDK_VERSION"
    mkdir -p "$folder.partial"
    python3 -m zipfile -e "$download"/claude_agent_sdk-*.whl "$folder.partial"
    chmod +x "$folder.partial/claude_agent_sdk/_bundled/claude"
    rm -rf "$download" "$folder"
    mv "$folder.partial" "$folder"
}
