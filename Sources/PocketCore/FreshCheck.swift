/// Runs an expensive check for many askers at once, at most one run at a time, while every asker
/// still gets an answer from a run that started after they asked.
///
/// Why: `GET /healthz` opens each database afresh. Asked 400 times at once, that was 400 × six
/// connections (three file handles each in WAL mode) and the process ran out of file handles.
/// Here a flood costs one run in progress plus one waiting to start: askers who arrive while a
/// run is under way share the next one, so nobody gets an answer older than their question
/// (a database broken a moment ago is still reported).
public actor FreshCheck<Value: Sendable> {
    private let check: @Sendable () async -> Value
    /// The run under way, if any, with its number.
    private var running: (id: Int, task: Task<Value, Never>)?
    /// The run that starts once the current one ends; everyone who asks meanwhile shares it.
    private var waiting: (id: Int, task: Task<Value, Never>)?
    private var nextID = 0

    /// Creates the checker; `check` is what one run does.
    public init(check: @escaping @Sendable () async -> Value) {
        self.check = check
    }

    /// The result of a run that began after this call.
    public func value() async -> Value {
        if let waiting { return await waiting.task.value }
        let id = nextID
        nextID += 1
        let previous = running?.task
        let check = self.check
        let task = Task.detached {
            _ = await previous?.value
            await self.started(id)
            return await check()
        }
        waiting = (id, task)
        let value = await task.value
        finished(id)
        return value
    }

    private func started(_ id: Int) {
        guard let waiting, waiting.id == id else { return }
        running = waiting
        self.waiting = nil
    }

    private func finished(_ id: Int) {
        if running?.id == id { running = nil }
    }
}
