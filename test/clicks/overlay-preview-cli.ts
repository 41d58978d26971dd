import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Effect } from "effect"
import { runOverlayPreview } from "../../src/cli/overlay-preview-command.ts"

// `scorebridge overlay-preview …` as a real process, until the lead wires the command into src/cli.ts.
runOverlayPreview(process.argv.slice(2)).pipe(Effect.provide(NodeServices.layer), NodeRuntime.runMain)
