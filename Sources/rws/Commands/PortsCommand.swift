import ArgumentParser
import Foundation
import SSHClient
import SessionHistory

struct PortsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ports",
        abstract: "List the TCP ports listening on the box, with the process that owns each.",
        discussion: """
            One line per port and address: PORT, ADDRESS (0.0.0.0 or :: for every address of the box, 127.0.0.1 or ::1 \
            for the box alone), PID and COMMAND, tab-separated; - where the owner is another user's process, which this \
            login may not see. Read from /proc/net/tcp and tcp6 (Linux boxes). rws forward PORT opens one here; rws \
            forward --auto opens each that appears.

            Examples:
              rws ports --host box
              rws ports --host box --json
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Flag(name: .long, help: "Print a JSON array of {port, address, pid, command} instead.")
    var json = false

    func run() async throws {
        try await runReportingErrors(json: json) {
            try await connection.withConnection { ssh in
                let ports = try await ssh.listeningPorts()
                if json {
                    Terminal.out(JSONWriter.string(from: .array(ports.map(Self.json))) + "\n")
                } else {
                    if ports.isEmpty { Terminal.err("no TCP ports listening on \(ssh.configuration.host)\n") }
                    for port in ports { Terminal.out(Self.line(port) + "\n") }
                }
                return 0
            }
        }
    }

    static func line(_ port: ListeningPort) -> String {
        let owner = port.process.map { "\($0.pid)\t\($0.command.safeLine)" } ?? "-\t-"
        return "\(port.port)\t\(port.address)\t\(owner)"
    }

    static func json(_ port: ListeningPort) -> JSONValue {
        .object(
            JSONObject([
                JSONMember("port", .number(Double(port.port))), JSONMember("address", .string(port.address)),
                JSONMember("pid", port.process.map { .number(Double($0.pid)) } ?? .null),
                JSONMember("command", port.process.map { .string($0.command) } ?? .null),
            ]))
    }
}
