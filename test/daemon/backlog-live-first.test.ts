import { afterEach, describe, it } from "vitest"
import { expectLiveFirst, type LiveFirstSize, runLiveFirst } from "../support/backlog-live-first.ts"
import { resources } from "../support/resources.ts"

/**
 * Issue 34, short mode (part of `npm test`): the daemon as a process on an outbox of 3 × 300 past
 * events' entries, the service down while each court's console shows its live match, then back.
 * At 50 requests a second the backlog alone is 18 s of the token: sent in capture order, the live
 * scores would wait behind it and miss the 15 s target. The full size is test/faults/backlog-live-first.test.ts.
 */
const size: LiveFirstSize = {
  places: 3,
  pastEventsPerPlace: 2,
  pendingPerPlace: 300,
  requestsPerSecond: 50,
  liveChanges: 5,
  downAfterLiveMs: 2_000,
  drainTimeoutMs: 60_000
}

const res = resources()
afterEach(() => res.release())

describe("after an outage with a backlog of past events", () => {
  it(`${size.places} places × ${size.pendingPerPlace} past entries at ${size.requestsPerSecond}/s: live scores current within 15 s, the backlog behind them, each entry once in its own event`, async () => {
    expectLiveFirst(await runLiveFirst(res, "backlog-live-first", size))
  }, 120_000)
})
