import Foundation
import SessionHistory

/// Turns `Encodable` reports (projects, sessions, review, search, files) into ``JSONValue``
/// trees, so that every JSON rws prints is written by the one ``JSONWriter``. Keys come out
/// sorted, dates as ISO 8601 text (seconds, UTC), optionals left out when nil — what the
/// reports' synthesized `Codable` asks for.
enum JSONValueEncoder {
    /// `value` as a JSON tree.
    static func encode(_ value: some Encodable) throws -> JSONValue {
        try JSONTreeEncoder(codingPath: []).tree(of: value)
    }

    /// `value` as pretty JSON text (two-space indentation, sorted keys) and a trailing newline.
    static func text(of value: some Encodable) throws -> String {
        JSONWriter.string(from: try encode(value), pretty: true) + "\n"
    }
}

/// A node being built: a value, or a container whose members are nodes still being filled.
private final class JSONNode {
    enum Content {
        case empty
        case value(JSONValue)
        case array([JSONNode])
        case object([String: JSONNode])
    }

    var content: Content = .empty

    var tree: JSONValue {
        switch content {
        case .empty: return .object(JSONObject())  // a value that encoded nothing, as JSONEncoder writes it
        case .value(let value): return value
        case .array(let nodes): return .array(nodes.map(\.tree))
        case .object(let members):
            return .object(JSONObject(members.sorted { $0.key < $1.key }.map { JSONMember($0.key, $0.value.tree) }))
        }
    }

    func set(_ value: JSONValue) { content = .value(value) }

    /// A new node under `key`. The members are taken out of `content` while they change, so that
    /// adding one does not copy the others.
    func member(_ key: String) -> JSONNode {
        var members: [String: JSONNode] = [:]
        if case .object(let existing) = content { members = existing }
        content = .empty
        let node = JSONNode()
        members[key] = node
        content = .object(members)
        return node
    }

    func ensureObject() {
        if case .object = content { return }
        content = .object([:])
    }

    /// A new node at the end (taken out of `content` meanwhile, like ``member(_:)``: a report of
    /// thousands of rows would otherwise copy the array once per row).
    func appended() -> JSONNode {
        var nodes: [JSONNode] = []
        if case .array(let existing) = content { nodes = existing }
        content = .empty
        let node = JSONNode()
        nodes.append(node)
        content = .array(nodes)
        return node
    }

    func ensureArray() {
        if case .array = content { return }
        content = .array([])
    }

    var count: Int {
        if case .array(let nodes) = content { return nodes.count }
        return 0
    }
}

private struct JSONTreeEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    let node: JSONNode

    init(codingPath: [any CodingKey], node: JSONNode = JSONNode()) {
        self.codingPath = codingPath
        self.node = node
    }

    func tree(of value: some Encodable) throws -> JSONValue {
        try fill(node, with: value, at: codingPath)
        return node.tree
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.ensureObject()
        return KeyedEncodingContainer(KeyedContainer(codingPath: codingPath, node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.ensureArray()
        return UnkeyedContainer(codingPath: codingPath, node: node)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(codingPath: codingPath, node: node)
    }
}

/// Fills `node` with `value`: dates, URLs and data as JSONEncoder writes them by default, every
/// other value through its own `encode(to:)`.
private func fill(_ node: JSONNode, with value: some Encodable, at path: [any CodingKey]) throws {
    switch value {
    case let date as Date: node.set(.string(date.formatted(.iso8601)))
    case let url as URL: node.set(.string(url.absoluteString))
    case let data as Data: node.set(.string(data.base64EncodedString()))
    default: try value.encode(to: JSONTreeEncoder(codingPath: path, node: node))
    }
}

private func number(_ value: some BinaryInteger) -> JSONValue { .number(Double(value)) }

private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let codingPath: [any CodingKey]
    let node: JSONNode

    mutating func encodeNil(forKey key: Key) throws { node.member(key.stringValue).set(.null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { node.member(key.stringValue).set(.bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { node.member(key.stringValue).set(.string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { node.member(key.stringValue).set(.number(value)) }
    mutating func encode(_ value: Float, forKey key: Key) throws { node.member(key.stringValue).set(.number(Double(value))) }
    mutating func encode(_ value: Int, forKey key: Key) throws { node.member(key.stringValue).set(number(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { node.member(key.stringValue).set(number(value)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { node.member(key.stringValue).set(number(value)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { node.member(key.stringValue).set(number(value)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { node.member(key.stringValue).set(number(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { node.member(key.stringValue).set(number(value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { node.member(key.stringValue).set(number(value)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { node.member(key.stringValue).set(number(value)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { node.member(key.stringValue).set(number(value)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { node.member(key.stringValue).set(number(value)) }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        try fill(node.member(key.stringValue), with: value, at: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = node.member(key.stringValue)
        child.ensureObject()
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(codingPath: codingPath + [key], node: child))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.member(key.stringValue)
        child.ensureArray()
        return UnkeyedContainer(codingPath: codingPath + [key], node: child)
    }

    mutating func superEncoder() -> any Encoder {
        JSONTreeEncoder(codingPath: codingPath, node: node.member("super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        JSONTreeEncoder(codingPath: codingPath + [key], node: node.member(key.stringValue))
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let codingPath: [any CodingKey]
    let node: JSONNode
    var count: Int { node.count }

    mutating func encodeNil() throws { node.appended().set(.null) }
    mutating func encode(_ value: Bool) throws { node.appended().set(.bool(value)) }
    mutating func encode(_ value: String) throws { node.appended().set(.string(value)) }
    mutating func encode(_ value: Double) throws { node.appended().set(.number(value)) }
    mutating func encode(_ value: Float) throws { node.appended().set(.number(Double(value))) }
    mutating func encode(_ value: Int) throws { node.appended().set(number(value)) }
    mutating func encode(_ value: Int8) throws { node.appended().set(number(value)) }
    mutating func encode(_ value: Int16) throws { node.appended().set(number(value)) }
    mutating func encode(_ value: Int32) throws { node.appended().set(number(value)) }
    mutating func encode(_ value: Int64) throws { node.appended().set(number(value)) }
    mutating func encode(_ value: UInt) throws { node.appended().set(number(value)) }
    mutating func encode(_ value: UInt8) throws { node.appended().set(number(value)) }
    mutating func encode(_ value: UInt16) throws { node.appended().set(number(value)) }
    mutating func encode(_ value: UInt32) throws { node.appended().set(number(value)) }
    mutating func encode(_ value: UInt64) throws { node.appended().set(number(value)) }

    mutating func encode(_ value: some Encodable) throws {
        let path = codingPath + [IndexKey(count)]
        try fill(node.appended(), with: value, at: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = codingPath + [IndexKey(count)]
        let child = node.appended()
        child.ensureObject()
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(codingPath: path, node: child))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = codingPath + [IndexKey(count)]
        let child = node.appended()
        child.ensureArray()
        return UnkeyedContainer(codingPath: path, node: child)
    }

    mutating func superEncoder() -> any Encoder {
        let path = codingPath + [IndexKey(count)]
        return JSONTreeEncoder(codingPath: path, node: node.appended())
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let codingPath: [any CodingKey]
    let node: JSONNode

    mutating func encodeNil() throws { node.set(.null) }
    mutating func encode(_ value: Bool) throws { node.set(.bool(value)) }
    mutating func encode(_ value: String) throws { node.set(.string(value)) }
    mutating func encode(_ value: Double) throws { node.set(.number(value)) }
    mutating func encode(_ value: Float) throws { node.set(.number(Double(value))) }
    mutating func encode(_ value: Int) throws { node.set(number(value)) }
    mutating func encode(_ value: Int8) throws { node.set(number(value)) }
    mutating func encode(_ value: Int16) throws { node.set(number(value)) }
    mutating func encode(_ value: Int32) throws { node.set(number(value)) }
    mutating func encode(_ value: Int64) throws { node.set(number(value)) }
    mutating func encode(_ value: UInt) throws { node.set(number(value)) }
    mutating func encode(_ value: UInt8) throws { node.set(number(value)) }
    mutating func encode(_ value: UInt16) throws { node.set(number(value)) }
    mutating func encode(_ value: UInt32) throws { node.set(number(value)) }
    mutating func encode(_ value: UInt64) throws { node.set(number(value)) }
    mutating func encode(_ value: some Encodable) throws { try fill(node, with: value, at: codingPath) }
}
