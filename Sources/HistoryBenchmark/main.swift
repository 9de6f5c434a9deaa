import Foundation
import SessionHistory

let path = CommandLine.arguments[1]
let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
for _ in 0..<3 {
    let start = DispatchTime.now().uptimeNanoseconds
    let result = SessionParser.parse(bytes)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print(result.records.count, result.issues.count, String(format: "%.3f s %.1f MB/s", seconds, Double(bytes.count) / 1e6 / seconds))
}
