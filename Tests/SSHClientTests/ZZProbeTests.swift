import Foundation
import RWSTestSupport
import SSHClient
import Testing

@Suite struct ZZProbeTests {
    @Test(arguments: ServerKind.allCases) func probeFacts(kind: ServerKind) async throws {
        let server = try TestSSHServer(kind)
        defer { server.stop() }
        var lost = 0
        for _ in 0..<5 {
            let connection = try await server.connect()
            do {
                _ = try await withThrowingTaskGroup(of: String.self) { group in
                    for index in 0..<200 { group.addTask { try await connection.run("echo \(index)").stdoutText } }
                    return try await group.reduce(into: Set<String>()) { $0.insert($1) }
                }
            } catch { lost += 1 }
            await connection.close()
        }
        print("PROBE \(kind) 200-concurrent lost \(lost)/5")
        // sequential with 2 at a time
        do {
            let connection = try await server.connect(maxChannels: 3)
            var l = 0
            do {
                _ = try await withThrowingTaskGroup(of: String.self) { group in
                    for index in 0..<200 { group.addTask { try await connection.run("echo \(index)").stdoutText } }
                    return try await group.reduce(into: Set<String>()) { $0.insert($1) }
                }
            } catch { l = 1; print("PROBE \(kind) conc2 error \(error)") }
            print("PROBE \(kind) 200 at 2 lost \(l)")
            await connection.close()
        }
        try await server.withConnection(maxChannels: 70) { connection in
            let outcomes = await withTaskGroup(of: String.self) { group in
                for _ in 0..<64 { group.addTask { do { return "\(try await connection.run("sleep 4").status)" } catch { return "\(error)" } } }
                return await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
            }
            print("PROBE \(kind) 64 sleeps: \(outcomes)")
        }
        try await server.withConnection { connection in
            print("PROBE \(kind) env:\n" + (try await connection.run("env | sort; id; umask; pwd; echo shell=$0; ps -o pid,pgid,sid,args -p $$; ls -l /usr/lib/sftp-server /usr/lib/openssh/sftp-server; ulimit -n").stdoutText))
            let shell = try await connection.openShell(ShellConfiguration(command: "tty; ps -o pid,pgid,sid,tpgid,args -p $$; env | sort; exit 0"))
            var text = ""
            for try await chunk in shell.output { text += String(decoding: chunk, as: UTF8.self) }
            print("PROBE \(kind) pty:\n" + text)
            print("PROBE \(kind) transport \(try await connection.activeFileTransport())")
            print("PROBE \(kind) signal \(try await connection.run("kill -TERM $$").status) \(try await connection.run("kill -KILL $$").status)")
        }
        let keep = try await server.connect(deadPeerTimeout: .seconds(3))
        do { print("PROBE \(kind) keepalive sleep 6: \(try await keep.run("sleep 6").status)") } catch { print("PROBE \(kind) keepalive: \(error)") }
        await keep.close()
        // unauthenticated limit
        var sockets: [Int32] = []
        for _ in 0..<5 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(server.port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let rc = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            sockets.append(fd); _ = rc
        }
        try await Task.sleep(for: .milliseconds(300))
        do { await (try await server.connect()).close(); print("PROBE \(kind) 6th connect ok") } catch { print("PROBE \(kind) 6th connect: \(error)") }
        for fd in sockets { close(fd) }
        try await Task.sleep(for: .milliseconds(300))
        do { await (try await server.connect()).close(); print("PROBE \(kind) after close ok") } catch { print("PROBE \(kind) after: \(error)") }
        print("PROBE LOG\n" + ((try? String(contentsOfFile: server.logPath, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.contains("ssert") || $0.contains("limit") || $0.contains("Max") || $0.contains("max") }.suffix(12).joined(separator: "\n"))
    }
}
