"""The terminal modes and window size an SSH client asks for, set on a pseudo-terminal.

Part of the asyncssh test server (asyncssh_server.py): a client's PTY request carries the modes
its terminal should have and its size; sshd sets both on the terminal before the command starts,
and sets the size again whenever the client says its window changed.
"""

import fcntl
import struct
import termios

# The terminal modes a client sends with its PTY request (RFC 4254 section 8; IUTF8 from RFC 8160),
# by opcode: the termios name of each, grouped by the word of `struct termios` it lives in. A name
# Linux lacks (VDSUSP, VSTATUS, VFLUSH) is left out; the line speeds mean nothing to a PTY.
CONTROL_CHARACTERS = {
    1: "VINTR", 2: "VQUIT", 3: "VERASE", 4: "VKILL", 5: "VEOF", 6: "VEOL", 7: "VEOL2", 8: "VSTART",
    9: "VSTOP", 10: "VSUSP", 12: "VREPRINT", 13: "VWERASE", 14: "VLNEXT", 16: "VSWTC", 18: "VDISCARD",
}
INPUT_FLAGS = {
    30: "IGNPAR", 31: "PARMRK", 32: "INPCK", 33: "ISTRIP", 34: "INLCR", 35: "IGNCR", 36: "ICRNL",
    37: "IUCLC", 38: "IXON", 39: "IXANY", 40: "IXOFF", 41: "IMAXBEL", 42: "IUTF8",
}
LOCAL_FLAGS = {
    50: "ISIG", 51: "ICANON", 52: "XCASE", 53: "ECHO", 54: "ECHOE", 55: "ECHOK", 56: "ECHONL",
    57: "NOFLSH", 58: "TOSTOP", 59: "IEXTEN", 60: "ECHOCTL", 61: "ECHOKE", 62: "PENDIN",
}
OUTPUT_FLAGS = {70: "OPOST", 71: "OLCUC", 72: "ONLCR", 73: "OCRNL", 74: "ONOCR", 75: "ONLRET"}
CONTROL_FLAGS = {92: "PARENB", 93: "PARODD"}
CHARACTER_SIZES = {90: "CS7", 91: "CS8"}
# Python's termios has no IUTF8 before 3.12: Linux's value.
LINUX_IUTF8 = 0o040000
# A control character of 255 in a mode means "disabled", which Linux spells 0 (_POSIX_VDISABLE).
DISABLED_CHARACTER = 255
# Where each word of `struct termios` is in the list tcgetattr returns.
INPUT_WORD, OUTPUT_WORD, CONTROL_WORD, LOCAL_WORD, CHARACTERS = 0, 1, 2, 3, 6
FLAG_TABLES = {
    INPUT_WORD: INPUT_FLAGS, OUTPUT_WORD: OUTPUT_FLAGS, CONTROL_WORD: CONTROL_FLAGS, LOCAL_WORD: LOCAL_FLAGS,
}


def termios_value(name):
    if name == "IUTF8":
        return getattr(termios, name, LINUX_IUTF8)
    return getattr(termios, name, None)


def with_flag(word, flag, enabled):
    return word | flag if enabled else word & ~flag


def apply_terminal_modes(descriptor, modes):
    """Sets the modes the client asked for on the terminal, as sshd does before the command starts."""
    attributes = termios.tcgetattr(descriptor)
    for opcode, value in modes.items():
        if opcode in CONTROL_CHARACTERS:
            index = termios_value(CONTROL_CHARACTERS[opcode])
            if index is not None:
                character = 0 if value == DISABLED_CHARACTER else value & 0xFF
                attributes[CHARACTERS][index] = bytes([character])
        elif opcode in CHARACTER_SIZES:
            if value:
                size = termios_value(CHARACTER_SIZES[opcode])
                attributes[CONTROL_WORD] = (attributes[CONTROL_WORD] & ~termios.CSIZE) | size
        else:
            for word, table in FLAG_TABLES.items():
                flag = termios_value(table[opcode]) if opcode in table else None
                if flag is not None:
                    attributes[word] = with_flag(attributes[word], flag, value)
    termios.tcsetattr(descriptor, termios.TCSANOW, attributes)


def set_window_size(descriptor, width, height, pixel_width, pixel_height):
    """Tells the terminal its size; the kernel sends SIGWINCH to its foreground group on a change."""
    size = struct.pack("HHHH", height, width, pixel_height, pixel_width)
    fcntl.ioctl(descriptor, termios.TIOCSWINSZ, size)
