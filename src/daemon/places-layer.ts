import { Effect, FiberSet, Layer, Schema, type Stream } from "effect"
import type { ProtocolDefinition } from "../../adapters/decoder.ts"
import { clickSettingsOf } from "../clicks/place-click-settings.ts"
import { protocols } from "../../adapters/registry.ts"
import type { Config, Place, Scoreboard } from "../config/schema.ts"
import { deliversMessages, describeLink, linkMaxFrameBytes } from "../config/scoreboard-link.ts"
import type { LinkState, ReceivedChunk } from "../domain/received.ts"
import { BridgeEvents } from "../bus/bridge-events.ts"
import { defaultSettleMs, type LinkTiming } from "../config/settle-window.ts"
import { resolvePlaceSports } from "./place-sports.ts"
import { runScoreboard } from "../scoring/scoreboard-pipeline.ts"
import { scoreboardChunks } from "./scoreboard-source.ts"

/**
 * Lets the demo feed a simulated console instead of a real port. It reports its link through
 * `onState` as a port does: the status page judges the court by the same link records either way.
 */
export type ChunkSourceOverride = (place: Place, onState: (state: LinkState) => void) => Stream.Stream<ReceivedChunk> | undefined

/** Starts one scoreboard pipeline per place that has a scoreboard. */
export const placesLayer = (config: Config, override?: ChunkSourceOverride) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const sports = yield* resolvePlaceSports(config)
    const bus = yield* BridgeEvents
    // Link states come from transport callbacks; published on fibers of the layer's scope, so closing it ends them.
    const runInScope = yield* FiberSet.makeRuntime<never, void, never>()
    for (const place of config.places) {
      const scoreboard = place.scoreboard
      if (scoreboard === undefined) continue
      const sport = sports.get(place.key)!
      const protocol = protocols[scoreboard.protocol] as ProtocolDefinition<unknown>
      // Already checked by the config loader; decoding again yields the typed options with defaults.
      const options = yield* Schema.decodeUnknownEffect(protocol.optionsSchema)(scoreboard.options).pipe(Effect.orDie)
      const maxFrameBytes = linkMaxFrameBytes(scoreboard)
      const decoder = protocol.makeDecoder({
        ...(options as object),
        sport,
        ...(maxFrameBytes === undefined ? {} : { maxFrameBytes }),
        // An MQTT payload or a datagram is one whole document, not a slice of a byte stream.
        ...(deliversMessages(scoreboard) ? { framing: "message" } : {})
      })
      const publishLink = (state: LinkState) => {
        runInScope(bus.publish({ _tag: "Link", place: place.key, state }))
      }
      const chunks = override?.(place, publishLink) ?? scoreboardChunks(scoreboard, protocol, publishLink)
      const settleMs = scoreboard.settleMs ?? defaultSettleMs(protocol, linkTiming(scoreboard))
      yield* Effect.logInfo(
        `${place.key}: ${sport} scoreboard, protocol ${scoreboard.protocol}, ${describeLink(scoreboard)}`
          + (settleMs > 0 ? `, changes settled over ${settleMs} ms` : "")
      )
      const rules = place.autoHighlights ?? []
      if (rules.length > 0) yield* Effect.logInfo(`${place.key}: auto-highlights for ${rules.map((r) => r.rule).join(", ")}`)
      const clickSettings = clickSettingsOf(place)
      const autos = { rules, mergeMs: clickSettings.mergeMs, overlayFor: clickSettings.overlayFor }
      yield* Effect.forkScoped(runScoreboard(place.key, sport, decoder, chunks, settleMs, autos).pipe(
        Effect.annotateLogs({ place: place.key }),
        Effect.catchCause((cause) => Effect.logError(`${place.key}: scoreboard pipeline stopped`, cause))
      ))
    }
  }))

/** What the settle window depends on: the serial line's speed, or a network hop in between. */
const linkTiming = (scoreboard: Scoreboard): LinkTiming =>
  scoreboard.serial !== undefined
    ? { kind: "serial", ...(scoreboard.serial.baudRate === undefined ? {} : { baudRate: scoreboard.serial.baudRate }) }
    : { kind: scoreboard.mqtt !== undefined ? "mqtt" : "network" }
