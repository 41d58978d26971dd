import { Console, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"

export const simCommand = Command.make(
  "sim",
  {
    port: Flag.Int("port").pipe(Flag.withDescription("TCP port to listen on (0 = any free port)"), Flag.withDefault(8787)),
    host: Flag.String("host").pipe(Flag.withDescription("Address to bind; keep it on loopback"), Flag.withDefault("127.0.0.1")),
    seed: Flag.String("seed").pipe(
      Flag.withDescription("JSON or YAML file with organizations, tokens and places (see docs/simulator.md); default: the demo organization"),
      Flag.optional
    ),
    rate: Flag.Finite("rate").pipe(Flag.withDescription("Requests per second allowed per token (429 beyond)"), Flag.withDefault(1))
  },
  Effect.fn(function*({ port, host, seed, rate }) {
    // Imported here, not at the top: the simulator stays out of what the daemon loads (its own
    // chunk of the bundle, scripts/build.ts).
    const { demoSeed, loadSeed, startSimulator } = yield* Effect.promise(() => import("../../simulator/index.ts"))
    const seedData = Option.isSome(seed) ? yield* Effect.try(() => loadSeed(seed.value)) : demoSeed
    const sim = yield* Effect.acquireRelease(
      Effect.promise(() => startSimulator({ port, host, seed: seedData, requestsPerSecond: rate })),
      (s) => Effect.promise(() => s.close())
    )
    yield* Console.log(`Event Highlights Service simulator listening on ${sim.url} (${rate} request/s per token)`)
    if (Option.isNone(seed)) {
      // The demo token is a published test value, not a credential: print it so a newcomer can curl.
      yield* Console.log(`demo organization "demo-org", places court-1 (tennis) and court-2 (volleyball), token: demo-token`)
    }
    yield* Console.log(`test controls: ${sim.url}/_control/ (see docs/simulator.md)`)
    return yield* Effect.never
  }, Effect.scoped)
).pipe(Command.withDescription("Run the Event Highlights Service simulator (for demos and tests)"))
