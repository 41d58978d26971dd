import { rmSync } from "node:fs"
import { join } from "node:path"
import { Console, Effect, Layer, Option, Redacted, Schema, Stream } from "effect"
import { Command, Flag } from "effect/cli"
import { Config } from "../config/schema.ts"
import { daemonLayer } from "../daemon/daemon-layer.ts"
import { pinoLoggerLayer } from "../observability/logger.ts"
import { BridgeEvents } from "../bus/bridge-events.ts"
import { describeEvent } from "./describe-event.ts"
import { simulatedTennisConsole } from "./simulated-console.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

export const demoCommand = Command.make(
  "demo",
  {
    points: Flag.Int("points").pipe(Flag.withDescription("How many tennis points to play before stopping"), Flag.withDefault(12)),
    pointEveryMs: Flag.Int("point-every-ms").pipe(Flag.withDescription("Time between points on the simulated board"), Flag.withDefault(1500)),
    statusListen: Flag.String("status-listen").pipe(
      Flag.withDescription("host:port of the demo's status page (the daemon's default, 127.0.0.1:8370, unless given)"),
      Flag.optional
    )
  },
  Effect.fn(function*({ points, pointEveryMs, statusListen }) {
    // Imported here, not at the top: the simulator stays out of what the daemon loads (its own
    // chunk of the bundle, scripts/build.ts).
    const [{ startSimulator }, { SimulatorControl }] = yield* Effect.promise(() =>
      Promise.all([import("../../simulator/index.ts"), import("../../simulator/control-client.ts")])
    )
    const sim = yield* Effect.acquireRelease(
      Effect.promise(() => startSimulator({ port: 0, requestsPerSecond: 1 })),
      (s) => Effect.promise(() => s.close())
    )
    const control = new SimulatorControl(sim.url)
    const event = yield* Effect.promise(() => control.startEvent("court-1", { homeTeam: "Home", awayTeam: "Away", name: "Demo match" }))
    const stateDirectory = yield* Effect.acquireRelease(
      Effect.sync(() => tempDir("demo")),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    )
    const config = Schema.decodeUnknownSync(Config)({
      service: { baseUrl: sim.url, token: { env: "SCOREBRIDGE_TOKEN" }, requestsPerSecond: 1 },
      stateDirectory,
      log: { level: "warn" },
      ...(Option.isSome(statusListen) ? { status: { listen: statusListen.value } } : {}),
      places: [{ key: "court-1", name: "Centre court", sport: "tennis", scoreboard: { protocol: "lines", serial: { path: "/dev/simulated-console" }, options: simulatedTennisConsole.options } }]
    })

    yield* Console.log([
      "scorebridge demo: a simulated tennis scoreboard → scorebridge → the built-in service simulator",
      `  simulator   ${sim.url} (demo token, 1 request/s per token like the real service)`,
      `  event       ${event.eventKey} live on court-1`,
      `  outbox      ${stateDirectory}/outbox.sqlite`,
      `  status      http://${config.status.listen}/ while the demo runs`,
      ""
    ].join("\n"))

    // The opening 0–0 makes an entry too.
    const expected = points + 1
    yield* Effect.gen(function*() {
      const bus = yield* BridgeEvents
      let settled = 0
      yield* bus.stream.pipe(
        Stream.tap((e) => {
          const line = describeEvent(e)
          return line === undefined ? Effect.void : Console.log(line)
        }),
        Stream.takeUntil((e) => e._tag === "Settled" && ++settled >= expected),
        Stream.runDrain
      )
    }).pipe(Effect.provide(daemonLayer(config, Redacted.make("demo-token"), {
      override: (place, onState) => simulatedTennisConsole.stream(points, pointEveryMs, { target: place.scoreboard?.serial?.path ?? place.key, onState })
    }).pipe(
      Layer.provide(pinoLoggerLayer("warn"))
    )))

    const received = yield* Effect.promise(() => control.requests())
    const accepted = received.filter((r) => r.method === "POST" && r.path.endsWith("/score") && r.status === 200).length
    const limited = received.filter((r) => r.status === 429).length
    yield* Console.log(`\nThe simulator accepted ${accepted} of ${expected} score entries (the opening 0-0 and one per point); ${limited} requests were rate limited.`)
  }, Effect.scoped)
).pipe(Command.withDescription("Run a self-contained demo: simulated scoreboard → bridge → built-in service simulator"))
