import { Layer } from "effect"
import type { Config } from "../config/schema.ts"
import { packageDirectory, rollbackFile } from "../upgrade/rollback-record.ts"
import { linkOfType } from "../config/buttons.ts"
import { type LinkDescription, scoreboardLink } from "../config/scoreboard-link.ts"
import { bridgeStateLayer } from "./bridge-state.ts"
import { BridgeStatus, type StatusOptions } from "./status-model.ts"
import { statusServerLayer } from "./status-server.ts"

const statusLink = ({ kind, target }: LinkDescription) => ({ link: kind, target })

/** What the status model needs to know of the config. */
export const statusOptionsOf = (config: Config): StatusOptions => ({
  places: config.places.map((place) => ({
    key: place.key,
    ...(place.name === undefined ? {} : { name: place.name }),
    ...(place.sport === undefined ? {} : { sport: place.sport }),
    ...(place.scoreboard === undefined
      ? {}
      : {
        scoreboard: statusLink(scoreboardLink(place.scoreboard))
      }),
    buttonSources: [...new Set((place.actions ?? []).map((action) => action.source))]
  })),
  buttons: (config.buttons ?? []).map((button) => ({ name: button.name, overMqtt: linkOfType[button.type] === "mqtt" })),
  mqtt: config.mqtt !== undefined,
  thresholds: { noDataAfterMs: config.status.noDataAfterSeconds * 1000, stuckAfterMs: config.status.stuckAfterSeconds * 1000 },
  clips: { followUp: config.clips.followUp, problemAfterClicks: config.clips.problemAfterClicks },
  ...(config.venue === undefined ? {} : { venue: config.venue }),
  rollbackFile: rollbackFile(packageDirectory())
})

/**
 * The status page, /healthz and /metrics on `status.listen`, and, with a
 * broker, the retained bridge state (and optionally readings) on MQTT.
 */
export const statusLayer = (config: Config) => {
  const server = statusServerLayer(config.status.listen).pipe(
    Layer.provideMerge(BridgeStatus.layer(statusOptionsOf(config)))
  )
  const mqtt = config.mqtt
  return mqtt === undefined
    ? server
    : Layer.merge(server, bridgeStateLayer({ topicPrefix: mqtt.topicPrefix, publishReadings: config.status.publishReadings }))
}
