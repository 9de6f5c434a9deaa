/// How long the test support waits for a program it started to be ready: a server to listen,
/// the processes of its readiness check's connection to end.
///
/// A wait returns as soon as the program is ready; the bound only tells a program that never
/// will be from one that starts slowly, so it is generous. On a starved box (the main lane in
/// its low-weight group beside the solo tests, with a sixth of the CPU stolen) python3 took more
/// than 10 s to listen.
public enum StartWait {
    /// The bound, in seconds.
    public static let seconds = 60
    /// The bound.
    public static var limit: Duration { .seconds(seconds) }
}
