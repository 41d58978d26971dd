import { Effect, Fiber, Scheduler } from "effect"
import { describe, expect, it } from "vitest"
import { onTurnBudget, TurnBudgetScheduler } from "../../src/daemon/turn-budget-scheduler.ts"

/**
 * The daemon's Effect scheduler: its fibers' tasks in turns of the event loop of at most about
 * `budgetMs`, so that I/O arriving meanwhile is taken between two turns. The clock is a stand-in
 * that each task moves on (a task "takes" its milliseconds), so what is tested is the turn logic,
 * not this machine's speed.
 */
const fakeClock = () => {
  let now = 0
  return { now: () => now, spend: (ms: number) => void (now += ms) }
}

/** Resolves once every immediate queued so far, and those they queue in turn, has run. */
const settled = () => new Promise<void>((resolve) => setTimeout(resolve, 20))

describe("TurnBudgetScheduler", () => {
  it("runs tasks by priority, lowest first, each priority first in first out", async () => {
    const clock = fakeClock()
    const dispatcher = new TurnBudgetScheduler(1, clock.now).makeDispatcher()
    const ran: Array<string> = []
    for (const [name, priority] of [["a", 1], ["b", 0], ["c", 1], ["d", 0], ["e", -1]] as const) {
      dispatcher.scheduleTask(() => void ran.push(name), priority)
    }
    await settled()
    expect(ran).toEqual(["e", "b", "d", "a", "c"])
  })

  it("leaves what is over its budget for a later turn of the loop, after what the loop had queued meanwhile, in order", async () => {
    const clock = fakeClock()
    const dispatcher = new TurnBudgetScheduler(1, clock.now).makeDispatcher()
    const ran: Array<string> = []
    const task = (name: string) => () => {
      ran.push(name)
      // Stands for I/O that became ready while the task ran: Node runs it at a later turn.
      if (name === "t1") setImmediate(() => ran.push("io"))
      clock.spend(0.6)
    }
    for (let n = 1; n <= 5; n++) dispatcher.scheduleTask(task(`t${n}`), 0)
    await settled()
    // Two tasks reach the 1 ms budget; the rest waits for the next turn, after the loop's own work.
    expect(ran).toEqual(["t1", "t2", "io", "t3", "t4", "t5"])
  })

  it("keeps the tasks left over ahead of those of their priority scheduled later", async () => {
    const clock = fakeClock()
    const dispatcher = new TurnBudgetScheduler(1, clock.now).makeDispatcher()
    const ran: Array<string> = []
    const task = (name: string, then?: () => void) => () => {
      ran.push(name)
      then?.()
      clock.spend(0.6)
    }
    dispatcher.scheduleTask(task("a1", () => dispatcher.scheduleTask(task("later"), 0)), 0)
    dispatcher.scheduleTask(task("a2"), 0)
    dispatcher.scheduleTask(task("a3"), 0)
    dispatcher.scheduleTask(task("a4"), 0)
    await settled()
    expect(ran).toEqual(["a1", "a2", "a3", "a4", "later"])
  })

  it("flush runs everything at once, tasks scheduled meanwhile included", () => {
    const clock = fakeClock()
    const dispatcher = new TurnBudgetScheduler(1, clock.now).makeDispatcher()
    const ran: Array<string> = []
    dispatcher.scheduleTask(() => {
      ran.push("a")
      clock.spend(5)
      dispatcher.scheduleTask(() => void ran.push("b"), 0)
    }, 0)
    dispatcher.flush()
    expect(ran).toEqual(["a", "b"])
  })

  it("every fiber shares one dispatcher, and yields after the budget's operations", async () => {
    const seen = await Effect.runPromise(Effect.gen(function*() {
      const scheduler = yield* Scheduler.Scheduler
      const child = yield* Effect.forkChild(Effect.gen(function*() {
        return yield* Scheduler.Scheduler
      }))
      return { scheduler, child: yield* Fiber.join(child), ops: yield* Scheduler.MaxOpsBeforeYield }
    }).pipe(onTurnBudget({ budgetMs: 1, maxOpsBeforeYield: 64 })))
    expect(seen.scheduler).toBeInstanceOf(TurnBudgetScheduler)
    expect(seen.child).toBe(seen.scheduler)
    expect(seen.scheduler.makeDispatcher()).toBe(seen.scheduler.makeDispatcher())
    expect(seen.ops).toBe(64)
  })

  it("a long fiber lets the loop's own work in between its slices", async () => {
    const events: Array<string> = []
    const long = Effect.gen(function*() {
      setImmediate(() => events.push("io"))
      for (let i = 0; i < 2_000; i++) yield* Effect.sync(() => i)
      events.push("long done")
    })
    await Effect.runPromise(long.pipe(onTurnBudget({ budgetMs: 1, maxOpsBeforeYield: 64 })))
    expect(events).toEqual(["io", "long done"])
  })
})
