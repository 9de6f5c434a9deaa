import SSHClient

/// The key table of docs/shell.md, as data: every key with its bytes in normal and in
/// application cursor mode. The tests check the library against it on the remote side.
enum KeyTable {
    struct Row {
        let key: Key
        let normal: [UInt8]
        let application: [UInt8]
    }

    static let esc: UInt8 = 0x1B

    static func row(_ key: Key, _ bytes: [UInt8]) -> Row { Row(key: key, normal: bytes, application: bytes) }

    static func cursor(_ key: Key, _ final: Character) -> Row {
        Row(key: key, normal: [esc, 0x5B, final.asciiValue!], application: [esc, 0x4F, final.asciiValue!])
    }

    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    static let rows: [Row] =
        controlRows + [
            row(.tab, [0x09]), row(.shiftTab, [esc] + ascii("[Z")), row(.escape, [esc]), row(.enter, [0x0D]),
            row(.backspace, [0x7F]), row(.delete, [esc] + ascii("[3~")), row(.insert, [esc] + ascii("[2~")),
            cursor(.up, "A"), cursor(.down, "B"), cursor(.right, "C"), cursor(.left, "D"), cursor(.home, "H"), cursor(.end, "F"),
            row(.pageUp, [esc] + ascii("[5~")), row(.pageDown, [esc] + ascii("[6~")),
            row(.function(1), [esc] + ascii("OP")), row(.function(2), [esc] + ascii("OQ")),
            row(.function(3), [esc] + ascii("OR")), row(.function(4), [esc] + ascii("OS")),
            row(.function(5), [esc] + ascii("[15~")), row(.function(6), [esc] + ascii("[17~")),
            row(.function(7), [esc] + ascii("[18~")), row(.function(8), [esc] + ascii("[19~")),
            row(.function(9), [esc] + ascii("[20~")), row(.function(10), [esc] + ascii("[21~")),
            row(.function(11), [esc] + ascii("[23~")), row(.function(12), [esc] + ascii("[24~")),
            row(.character("é"), [0xC3, 0xA9]),
            row(.alt(.character("x")), [esc, 0x78]), row(.alt(.ctrl("a")), [esc, 0x01]), row(.alt(.backspace), [esc, 0x7F]),
            Row(key: .alt(.left), normal: [esc, esc] + ascii("[D"), application: [esc, esc] + ascii("OD")),
        ]

    /// Ctrl+a … Ctrl+z are 0x01 … 0x1A (upper case the same); Ctrl+@ [ \ ] ^ _ are 0x00, 0x1B … 0x1F.
    static let controlRows: [Row] =
        (UInt8(ascii: "a")...UInt8(ascii: "z")).map { row(.ctrl(Character(UnicodeScalar($0))), [$0 - 0x60]) }
        + [
            row(.ctrl("Z"), [0x1A]), row(.ctrl("@"), [0x00]), row(.ctrl("["), [0x1B]), row(.ctrl("\\"), [0x1C]),
            row(.ctrl("]"), [0x1D]), row(.ctrl("^"), [0x1E]), row(.ctrl("_"), [0x1F]),
        ]
}
