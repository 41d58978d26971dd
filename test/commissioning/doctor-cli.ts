import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Effect } from "effect"
import { runDoctor } from "../../src/cli/doctor-command.ts"

// `scorebridge doctor …` as a real process, until the lead wires the command into src/cli.ts.
runDoctor(process.argv.slice(2)).pipe(Effect.provide(NodeServices.layer), NodeRuntime.runMain)
