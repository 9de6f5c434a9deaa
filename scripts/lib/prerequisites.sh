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
