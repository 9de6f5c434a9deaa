import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient

extension TestBox {
    /// Runs `body` with a project manager on the box's host (a fresh connection, closed before returning).
    func withManager<T>(_ body: (ProjectManager) async throws -> T) async throws -> T {
        try await withHost { host in try await body(ProjectManager(host: host, locations: locations)) }
    }

    /// Writes a one-prompt session file with `cwd` into the Claude project folder `folder`.
    func writeSession(folder: String, cwd: String, id: String = UUID().uuidString.lowercased()) throws {
        let cwdJSON = String(decoding: try JSONSerialization.data(withJSONObject: [cwd], options: [.withoutEscapingSlashes]), as: UTF8.self)
        let line =
            #"{"type":"user","uuid":"u1","sessionId":"\#(id)","cwd":\#(cwdJSON.dropFirst().dropLast()),"#
            + #""message":{"role":"user","content":"hi"}}"#
        try writeSession(id, folder: folder, lines: [line])
    }
}
