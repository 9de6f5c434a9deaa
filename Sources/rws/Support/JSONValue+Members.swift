import SessionHistory

extension JSONValue {
    /// An object with `members` in the order written: every JSON rws prints goes through
    /// ``JSONWriter``, built from ``JSONValue``s.
    static func object(_ members: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(JSONObject(members.map { JSONMember($0.key, $0.value) }))
    }

    /// `strings` as an array of JSON strings.
    static func strings(_ strings: [String]) -> JSONValue { .array(strings.map { .string($0) }) }
}
