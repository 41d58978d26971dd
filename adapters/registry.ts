import type { ProtocolDefinition } from "./decoder.ts"
import { bodetScorepad } from "./bodet-scorepad/index.ts"
import { coloradoCts } from "./colorado-cts/index.ts"
import { daktronicsRtd } from "./daktronics-rtd/index.ts"
import { fairplayMp70 } from "./fairplay-mp70/index.ts"
import { json } from "./json/index.ts"
import { lines } from "./lines/index.ts"
import { stramatel452m } from "./stramatel-452m/index.ts"

/**
 * Every scoreboard protocol the bridge speaks, by the name the config gives it. Adding a console:
 * its folder (with its definition), one line here, its docs and its example config; the config
 * schema, the JSON Schema, `sniff` and `learn` read it from here.
 */
const registry = {
  "daktronics-rtd": daktronicsRtd,
  "stramatel-452m": stramatel452m,
  "bodet-scorepad": bodetScorepad,
  "fairplay-mp70": fairplayMp70,
  "colorado-cts": coloradoCts,
  lines,
  json
} as const satisfies Readonly<Record<string, ProtocolDefinition<any>>>

export type ProtocolName = keyof typeof registry

export const protocols: Readonly<Record<string, ProtocolDefinition<any>>> = registry

/** In the registry's order; never empty. */
export const protocolNames = Object.keys(registry) as [ProtocolName, ...Array<ProtocolName>]
