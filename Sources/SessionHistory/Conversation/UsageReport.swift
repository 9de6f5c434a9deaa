/// Token usage totals for a transcript.
///
/// Claude Code writes one line per content block of a response, each carrying a usage object
/// (identical, or a running snapshot where only the last is final). Counting lines over-counts;
/// here each `message.id` counts once, with the field-wise maximum of its snapshots.
/// Client-made `<synthetic>` error lines are left out.
public struct UsageReport: Sendable, Equatable {
    /// The sum over all distinct responses.
    public var total: TokenUsage
    /// The sums per model.
    public var byModel: [String: TokenUsage]
    /// How many distinct responses were counted.
    public var responseCount: Int

    /// Creates a report.
    public init(total: TokenUsage = TokenUsage(), byModel: [String: TokenUsage] = [:], responseCount: Int = 0) {
        self.total = total
        self.byModel = byModel
        self.responseCount = responseCount
    }

    /// The usage of the assistant records, de-duplicated by message id.
    public init(records: some Sequence<SessionRecord>) {
        var perMessage: [String: (model: String?, usage: TokenUsage)] = [:]
        var order: [String] = []
        for record in records {
            guard let assistant = record.assistant, !assistant.isSynthetic, let usage = assistant.usage else { continue }
            let key = assistant.messageId ?? assistant.requestId ?? record.envelope.uuid ?? "line-\(record.location.line)"
            if let seen = perMessage[key] {
                perMessage[key] = (seen.model ?? assistant.model, seen.usage.fieldwiseMaximum(usage))
            } else {
                perMessage[key] = (assistant.model, usage)
                order.append(key)
            }
        }
        self.init()
        for key in order {
            guard let entry = perMessage[key] else { continue }
            total += entry.usage
            byModel[entry.model ?? "unknown", default: TokenUsage()] += entry.usage
        }
        responseCount = order.count
    }

    /// The sum of two reports (e.g. a session and its subagents).
    public static func + (lhs: UsageReport, rhs: UsageReport) -> UsageReport {
        var result = lhs
        result.total += rhs.total
        result.responseCount = .saturatingSum(result.responseCount, rhs.responseCount)
        for (model, usage) in rhs.byModel { result.byModel[model, default: TokenUsage()] += usage }
        return result
    }
}
