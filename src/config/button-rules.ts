import type { Schema } from "effect"
import { formatPath } from "./problems.ts"

interface Press {
  readonly source: string
  readonly button?: string
  readonly gesture: string
}

interface ButtonFields {
  readonly mqtt?: unknown
  readonly buttons?: ReadonlyArray<{ readonly name: string; readonly mqtt?: unknown; readonly serial?: { readonly path: string } }>
  readonly places: ReadonlyArray<{
    readonly scoreboard?: { readonly serial?: { readonly path: string } }
    readonly actions?: ReadonlyArray<Press>
    readonly clicks?: { readonly feedbackTopic?: string; readonly clipSignal?: unknown }
  }>
}

type Issue = Schema.FilterIssue & { readonly path: ReadonlyArray<PropertyKey> }

const noBroker = "there is no top-level mqtt: block with the broker url"

export const describePress = (press: Press) => `${press.source}${press.button === undefined ? " (any button)" : ` button ${press.button}`} ${press.gesture}`

// Two actions match one press when they name the same gesture of the same source and one of them takes any button.
const overlap = (a: Press, b: Press) =>
  a.source === b.source && a.gesture === b.gesture && (a.button === undefined || b.button === undefined || a.button === b.button)

const uniqueNames = (config: ButtonFields): Array<Issue> => {
  const first = new Map<string, number>()
  return (config.buttons ?? []).flatMap((button, index) => {
    const earlier = first.get(button.name)
    if (earlier === undefined) first.set(button.name, index)
    return earlier === undefined ? [] : [{ path: ["buttons", index, "name"], issue: `duplicate button name "${button.name}" (also buttons[${earlier}])` }]
  })
}

const brokerNeeded = (config: ButtonFields): Array<Issue> =>
  config.mqtt !== undefined ? [] : [
    ...(config.buttons ?? []).flatMap((button, index) =>
      button.mqtt === undefined ? [] : [{ path: ["buttons", index, "mqtt"], issue: `uses MQTT, but ${noBroker}` }]
    ),
    ...config.places.flatMap((place, index) =>
      place.clicks?.feedbackTopic === undefined ? [] : [{ path: ["places", index, "clicks", "feedbackTopic"], issue: `publishes on MQTT, but ${noBroker}` }]
    ),
    ...config.places.flatMap((place, index) =>
      place.clicks?.clipSignal === undefined ? [] : [{ path: ["places", index, "clicks", "clipSignal"], issue: `publishes on MQTT, but ${noBroker}` }]
    )
  ]

const actionsResolve = (config: ButtonFields): Array<Issue> => {
  const names = (config.buttons ?? []).map((button) => button.name)
  return config.places.flatMap((place, p) =>
    (place.actions ?? []).flatMap((action, a) => {
      const at = ["places", p, "actions", a]
      const unknown = names.includes(action.source) ? [] : [{
        path: [...at, "source"],
        issue: names.length === 0
          ? `names button source "${action.source}", but there is no top-level buttons: list`
          : `no button source named "${action.source}" (buttons: ${names.join(", ")})`
      }]
      const earlier = place.actions!.findIndex((other, o) => o < a && overlap(other, action))
      const clash = earlier === -1 ? [] : [{
        path: at,
        issue: `${describePress(action)} is also handled by actions[${earlier}] (${describePress(place.actions![earlier]!)}): one press does one thing per place`
      }]
      return [...unknown, ...clash]
    })
  )
}

// A serial port has one reader: a second would steal its bytes.
const serialPortsShared = (config: ButtonFields): Array<Issue> => {
  const ports = [
    ...config.places.map((place, index) => ({ path: place.scoreboard?.serial?.path, at: ["places", index, "scoreboard", "serial", "path"] })),
    ...(config.buttons ?? []).map((button, index) => ({ path: button.serial?.path, at: ["buttons", index, "serial", "path"] }))
  ]
  return ports.flatMap((port, index) => {
    const earlier = ports.findIndex((other, o) => o < index && port.path !== undefined && other.path === port.path)
    return earlier === -1 ? [] : [{ path: port.at, issue: `${port.path} is also read by ${formatPath(ports[earlier]!.at)}: one serial port has one reader` }]
  })
}

/** Rules linking buttons, places and the broker: caught at start-up, not at the first press. */
export const buttonRules = (config: ButtonFields): Array<Issue> => [
  ...uniqueNames(config),
  ...brokerNeeded(config),
  ...actionsResolve(config),
  ...serialPortsShared(config)
]
