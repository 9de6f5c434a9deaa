import Foundation
import SSHClient

/// OpenSSH's question about a host it has not seen before (`StrictHostKeyChecking ask`, the
/// default), asked on the terminal with its words: the fingerprint, then yes, no or the
/// fingerprint itself. A changed key is never put to the question: it is refused with rws's warning.
enum HostKeyPrompt {
    static func decide(_ challenge: HostKeyChallenge) async -> HostKeyDecision {
        // trustAndRecord refuses a changed key with the HOST KEY CHANGED error (HostKeyDecision).
        guard challenge.status == .unknown else { return .trustAndRecord }
        let name = challenge.knownHostsName.safeLine
        Terminal.err(
            "The authenticity of host '\(name)' can't be established.\n"
                + "\(keyName(challenge.keyType)) key fingerprint is \(challenge.fingerprint.safeLine).\n")
        let question = TerminalQuestion()
        var prompt = "Are you sure you want to continue connecting (yes/no/[fingerprint])? "
        while true {
            guard case .line(let line) = await question.ask(prompt) else { return .refuse }
            let answer = line.trimmingCharacters(in: .whitespaces)
            switch answer.lowercased() {
            case "yes":
                break
            case "no":
                return .refuse
            default:
                guard answer == challenge.fingerprint else {
                    prompt = "Please type 'yes', 'no' or the fingerprint: "
                    continue
                }
            }
            Terminal.err("rws: added '\(name)' (\(keyName(challenge.keyType))) to \(challenge.knownHostsFile.safeLine)\n")
            return .trustAndRecord
        }
    }

    /// `ssh-ed25519` → `ED25519`, `ecdsa-sha2-nistp256` → `ECDSA`, as `ssh` names key types.
    static func keyName(_ type: String) -> String {
        if type.hasPrefix("ecdsa-") { return "ECDSA" }
        return (type.hasPrefix("ssh-") ? String(type.dropFirst(4)) : type).uppercased().safeLine
    }
}
