import { Effect, Scheduler } from "effect"
import { performance } from "node:perf_hooks"

/**
 * Effect's scheduler for the daemon: its fibers' work in short turns of the event loop, so that
 * bytes and presses arriving meanwhile are read, and stamped, within a millisecond or two.
 *
 * Effect's own scheduler runs every task that is ready in one turn, each until its fiber has done
 * 2,048 operations. Under --jitless that is several milliseconds: eight boards' frames read
 * together, or a burst of score changes and the scheduler's reads that follow each, held the loop
 * 4–13 ms, and a change arriving then was stamped that late (bench, slow-disk phase). Here:
 *
 * - one queue for all fibers' tasks, run in a turn (a `setImmediate`) until `budgetMs` has gone;
 *   what is left runs in the next turn, after the loop has polled for I/O (where the serial reads
 *   and MQTT messages are taken and stamped). Order is kept: a task left over runs before the
 *   tasks scheduled after it, priorities as Effect's (lower first).
 * - fibers yield after `maxOpsBeforeYield` operations (`Scheduler.MaxOpsBeforeYield`), so that
 *   one long fiber is a task of bounded length too.
 *
 * `flush` (what `Effect.runSync` uses, with a scheduler of its own) runs everything at once, as
 * Effect's does.
 */
export interface TurnBudget {
  /** Milliseconds of tasks per event-loop turn before the rest waits for the next turn. */
  readonly budgetMs: number
  /** Operations a fiber does before it yields its turn. */
  readonly maxOpsBeforeYield: number
}

/** About a tenth of a tick burst's work under --jitless (see performance.md, issue 34), and a few hundred µs of a fiber's. */
export const daemonTurnBudget: TurnBudget = { budgetMs: 1, maxOpsBeforeYield: 256 }

type Task = () => void

/** Tasks by priority, lowest first; first in, first out within one. */
class TaskQueue {
  private buckets: Array<{ readonly priority: number; tasks: Array<Task> }> = []

  get isEmpty(): boolean {
    return this.buckets.length === 0
  }

  add(task: Task, priority: number): void {
    let index = 0
    while (index < this.buckets.length && this.buckets[index]!.priority < priority) index++
    const bucket = this.buckets[index]
    if (bucket !== undefined && bucket.priority === priority) bucket.tasks.push(task)
    else this.buckets.splice(index, 0, { priority, tasks: [task] })
  }

  /** Takes every task queued so far; those added later wait for the next take. */
  take(): Array<{ readonly priority: number; tasks: Array<Task> }> {
    const taken = this.buckets
    this.buckets = []
    return taken
  }

  /** Puts back tasks taken but not run, ahead of those of their priority added since. */
  putBack(priority: number, tasks: Array<Task>): void {
    if (tasks.length === 0) return
    let index = 0
    while (index < this.buckets.length && this.buckets[index]!.priority < priority) index++
    const bucket = this.buckets[index]
    if (bucket !== undefined && bucket.priority === priority) bucket.tasks = [...tasks, ...bucket.tasks]
    else this.buckets.splice(index, 0, { priority, tasks })
  }
}

class TurnBudgetDispatcher implements Scheduler.SchedulerDispatcher {
  private readonly queue = new TaskQueue()
  private scheduled = false
  private readonly budgetMs: number
  private readonly now: () => number

  constructor(budgetMs: number, now: () => number) {
    this.budgetMs = budgetMs
    this.now = now
  }

  scheduleTask(task: Task, priority: number): void {
    this.queue.add(task, priority)
    this.schedule()
  }

  flush(): void {
    while (!this.queue.isEmpty) for (const { tasks } of this.queue.take()) for (const task of tasks) task()
  }

  private schedule(): void {
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(this.turn)
  }

  private readonly turn = (): void => {
    this.scheduled = false
    const deadline = this.now() + this.budgetMs
    const taken = this.queue.take()
    for (let b = 0; b < taken.length; b++) {
      const { priority, tasks } = taken[b]!
      for (let t = 0; t < tasks.length; t++) {
        tasks[t]!()
        if (this.now() < deadline || (t === tasks.length - 1 && b === taken.length - 1)) continue
        // Out of time: the rest after the loop's next poll, in their order.
        for (let rest = taken.length - 1; rest > b; rest--) this.queue.putBack(taken[rest]!.priority, taken[rest]!.tasks)
        this.queue.putBack(priority, tasks.slice(t + 1))
        break
      }
      if (this.now() >= deadline) break
    }
    if (!this.queue.isEmpty) this.schedule()
  }
}

/** A scheduler whose fibers share one dispatcher with a time budget per turn (see above). */
export class TurnBudgetScheduler implements Scheduler.Scheduler {
  readonly executionMode = "async" as const
  private readonly dispatcher: TurnBudgetDispatcher

  constructor(budgetMs: number, now: () => number = () => performance.now()) {
    this.dispatcher = new TurnBudgetDispatcher(budgetMs, now)
  }

  shouldYield(fiber: Parameters<Scheduler.Scheduler["shouldYield"]>[0]): boolean {
    return fiber.currentOpCount >= fiber.cache.maxOpsBeforeYield
  }

  makeDispatcher(): Scheduler.SchedulerDispatcher {
    return this.dispatcher
  }
}

/** Runs `effect` (the daemon) on the turn-budget scheduler. */
export const onTurnBudget = (budget: TurnBudget) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  effect.pipe(
    Effect.provideService(Scheduler.Scheduler, new TurnBudgetScheduler(budget.budgetMs)),
    Effect.provideService(Scheduler.MaxOpsBeforeYield, budget.maxOpsBeforeYield)
  )
