import { rmSync } from "node:fs"
import { Context, Effect, Layer, ManagedRuntime, Redacted, References } from "effect"
import { type AppendInput, Outbox, OutboxItems } from "../../src/delivery/outbox.ts"
import { deliveryLayer } from "../../src/daemon/delivery-layer.ts"
import { SimulatorControl } from "../../simulator/control-client.ts"
import { type RunningSimulator, type SimulatorSeed, startSimulator } from "../../simulator/index.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * The real delivery core (SQLite outbox, rate budget, scheduler, HTTP client)
 * against the simulator over loopback HTTP, at a given rate limit.
 */
/** Two basketball courts: generic entries, so tests need no sport-specific scoreValue. */
export const basketballSeed: SimulatorSeed = {
  organizations: [{
    key: "test-org",
    name: "Test organization",
    tokens: ["demo-token"],
    places: [{ key: "court-1", name: "Court 1", sport: "basketball" }, { key: "court-2", name: "Court 2", sport: "basketball" }]
  }]
}

export const startDelivery = async (
  requestsPerSecond: number,
  { wrapOutbox, stateDirectory = tempDir("delivery"), ...options }: {
    backlogAfterMs?: number
    /** A state directory with an outbox already in it (as a restart finds it); a new one by default. */
    stateDirectory?: string
    /** Stands between the delivery core and the real outbox's items (a slow disk). */
    wrapOutbox?: (items: OutboxItems["Service"]) => OutboxItems["Service"]
  } = {}
) => {
  const sim: RunningSimulator = await startSimulator({ port: 0, requestsPerSecond, burst: 1, seed: basketballSeed })
  const control = new SimulatorControl(sim.url)
  const outbox = Outbox.layer({ stateDirectory })
  const layer = deliveryLayer(
    {
      baseUrl: sim.url,
      token: Redacted.make("demo-token"),
      timeoutMs: 2_000,
      requestsPerSecond,
      stateDirectory,
      ...options
    },
    wrapOutbox === undefined ? outbox : Layer.effectContext(Effect.map(Effect.context<Outbox>(), (services) =>
      Context.add(services, OutboxItems, wrapOutbox(Context.get(services, OutboxItems))))).pipe(Layer.provide(outbox))
    // Warnings such as "no event running" are expected here; keep the test output readable.
  ).pipe(Layer.provide(Layer.succeed(References.MinimumLogLevel, "Error")))
  const runtime = ManagedRuntime.make(layer)
  const run = <A, E>(effect: Effect.Effect<A, E, Layer.Success<typeof layer>>) => runtime.runPromise(effect)
  const append = (input: AppendInput) => run(Effect.flatMap(Effect.service(OutboxItems), (outbox) => outbox.append(input)))
  return {
    sim,
    control,
    stateDirectory,
    runtime,
    run,
    append,
    close: async () => {
      await runtime.dispose()
      await sim.close()
      rmSync(stateDirectory, { recursive: true, force: true })
    }
  }
}

/** A single press on court-1 made before the place's live event was known: delivering it needs a look-up. */
export const appendPressWithUnknownEvent = (d: Awaited<ReturnType<typeof startDelivery>>, clickId: string) => {
  const pressedAt = Date.now()
  return d.append({
    place: "court-1",
    kind: "click",
    eventKey: null,
    payload: { timeStamp: pressedAt, metadata: { clickId, team: "none", source: "test", button: "1", gesture: "single" } },
    dedupeKey: clickId,
    createdAt: pressedAt
  })
}

export const genericEntry = (i: number, at = Date.now()) => ({ timeStamp: at + i, left: i, right: 0, period: 1 })
