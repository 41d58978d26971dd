import type { ProtocolDefinition } from "../../adapters/decoder.ts"
import { protocols } from "../../adapters/registry.ts"
import { eightNoneOne, framingLabel, framingOf, type SerialFraming } from "./serial-framing.ts"

/** One framing sniff opens the port with, the speeds it listens at with it, and the protocols it decodes there. */
export interface FramingPlan {
  readonly framing: SerialFraming
  readonly baudRates: ReadonlyArray<number>
  /** The recognisable protocols whose consoles send at this framing: only they are tried on what is heard with it. */
  readonly protocols: ReadonlyArray<string>
}

/** Speeds the protocols' documentation gives (their default, then others), in order, once each. */
const documentedSpeeds = (definitions: ReadonlyArray<ProtocolDefinition<unknown>>): ReadonlyArray<number> => [
  ...new Set(definitions.flatMap((d) => [d.serialDefaults.baudRate, ...(d.recognise?.otherBaudRates ?? [])]))
]

/**
 * What sniff listens with on a serial port: one port opening per framing, 8N1 first (most
 * consoles, and text lines), then each other framing a recognisable protocol sends at, in the
 * registry's order. Each framing is tried at the speeds given, then at the documented speeds of
 * its protocols not among them. A protocol is only decoded at its own framing: on a real UART,
 * bytes heard at another framing are parity and framing errors, and a pty would pass them clean
 * and name a framing the console does not use.
 */
export const sniffPlan = (
  baudRates: ReadonlyArray<number>,
  definitions: ReadonlyArray<ProtocolDefinition<unknown>> = Object.values(protocols)
): ReadonlyArray<FramingPlan> => {
  const recognisable = definitions.filter((d) => d.recognise !== undefined)
  const framings = new Map<string, SerialFraming>([[framingLabel(eightNoneOne), eightNoneOne]])
  for (const d of recognisable) framings.set(framingLabel(d.serialDefaults), framingOf(d.serialDefaults))
  return [...framings].map(([label, framing]) => {
    const members = recognisable.filter((d) => framingLabel(d.serialDefaults) === label)
    const extra = documentedSpeeds(members).filter((speed) => !baudRates.includes(speed))
    return { framing, baudRates: [...baudRates, ...extra], protocols: members.map((d) => d.name) }
  })
}
