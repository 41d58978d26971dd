import { Effect, FileSystem, Layer, Path, Stdio, Terminal } from "effect"
import { Command } from "effect/cli"
import { ChildProcessSpawner } from "effect/process"
import { describe, expect, it } from "vitest"
import { configFlag } from "../../src/cli/config-flag.ts"
import { daemonConfigArgument, defaultConfigPath } from "../../src/cli/daemon-arguments.ts"

/** The config path effect/cli gives `run` for `args`, with the same --config flag as the real command. */
const parsedByTheFullCli = async (args: ReadonlyArray<string>): Promise<string | undefined> => {
  let seen: string | undefined
  const run = Command.make("run", { config: configFlag }, ({ config }) => Effect.sync(() => void (seen = config)))
  const root = Command.make("scorebridge").pipe(Command.withSubcommands([run]))
  const services = Layer.mergeAll(
    FileSystem.layerNoop({}),
    Path.layer,
    Stdio.layerTest({}),
    Layer.succeed(Terminal.Terminal, Terminal.make({
      columns: Effect.succeed(80),
      rows: Effect.succeed(24),
      size: Effect.die("unused"),
      readInput: Effect.die("unused"),
      readLine: Effect.die("unused"),
      display: () => Effect.void
    })),
    Layer.succeed(ChildProcessSpawner.ChildProcessSpawner, ChildProcessSpawner.make(() => Effect.die("unused")))
  )
  await Effect.runPromise(Command.runWith(root, { version: "test" })(args).pipe(Effect.provide(services)))
  return seen
}

describe("the daemon's command line, read without effect/cli", () => {
  it.each([
    [["run"]],
    [["run", "--config", "/etc/scorebridge/venue.yaml"]],
    [["run", "-c", "venue.yaml"]],
    [["run", "--config=/srv/sb/config.yaml"]]
  ])("reads %j as the full CLI does", async (args) => {
    const config = daemonConfigArgument(args)
    expect(config).toBeDefined()
    expect(config).toBe(await parsedByTheFullCli(args))
  })

  it("defaults to $SCOREBRIDGE_CONFIG, else /etc/scorebridge/config.yaml", () => {
    expect(daemonConfigArgument(["run"], { SCOREBRIDGE_CONFIG: "/opt/x.yaml" })).toBe("/opt/x.yaml")
    expect(daemonConfigArgument(["run"], {})).toBe("/etc/scorebridge/config.yaml")
    expect(defaultConfigPath({})).toBe("/etc/scorebridge/config.yaml")
  })

  it.each([
    [[]],
    [["--help"]],
    [["run", "--help"]],
    [["run", "--config"]],
    [["run", "--config="]],
    [["run", "-c", "--help"]],
    [["run", "--config", "a.yaml", "extra"]],
    [["run", "--log-level", "debug"]],
    [["check", "--config", "a.yaml"]]
  ])("leaves %j to the full CLI (help, errors, other commands)", (args) => {
    expect(daemonConfigArgument(args)).toBeUndefined()
  })
})
