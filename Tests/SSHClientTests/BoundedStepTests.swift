import RWSTestSupport
import Synchronization
import Testing

/// The test support's bounded steps: a step that hangs fails at its limit, naming itself and its context.
@Suite(.timeLimit(.minutes(1))) struct BoundedStepTests {
    @Test func aStepThatEndsInTimeGivesItsValue() async throws {
        let value = try await Bounded.step("adding", within: .seconds(10)) { 6 * 7 }
        #expect(value == 42)
    }

    @Test func aStepThatNeverEndsFailsAtItsLimitNamingItselfAndWhatItsContextSays() async throws {
        let started = ContinuousClock.now
        // Ignores cancellation, as a hung operation does: the step must not wait for it.
        let hung = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let error = await #expect(throws: Bounded.StepTookTooLong.self) {
            try await Bounded.step("waiting for nothing", within: .milliseconds(300), context: { "the channel was paused" }) {
                await withCheckedContinuation { continuation in hung.withLock { $0 = continuation } }
            }
        }
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(error?.description == "waiting for nothing did not end within 0.3 seconds; then: the channel was paused")
        hung.withLock { $0.take() }?.resume()
    }

    @Test func aContextThatDoesNotAnswerStillLetsTheStepFail() async throws {
        let hung = Mutex<[CheckedContinuation<Void, Never>]>([])
        let error = await #expect(throws: Bounded.StepTookTooLong.self) {
            try await Bounded.step(
                "waiting", within: .milliseconds(100),
                context: {
                    await withCheckedContinuation { continuation in hung.withLock { $0.append(continuation) } }
                    return "never said"
                }
            ) { await withCheckedContinuation { continuation in hung.withLock { $0.append(continuation) } } }
        }
        #expect(error?.context == "(no answer within 5 s)")
        for continuation in hung.withLock({ $0 }) { continuation.resume() }
    }

    @Test func aStepsOwnErrorIsThrownAsItIs() async throws {
        struct Refused: Error, Equatable {}
        await #expect(throws: Refused()) {
            try await Bounded.step("refusing", within: .seconds(10)) { throw Refused() }
        }
    }
}
