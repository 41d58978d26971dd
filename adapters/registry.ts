import type { ProtocolDefinition } from "./decoder.ts"
import { bodetScorepad } from "./bodet-scorepad/index.ts"
import { daktronicsRtd } from "./daktronics-rtd/index.ts"
import { fairplayMp70 } from "./fairplay-mp70/index.ts"
import { json } from "./json/index.ts"
import { lines } from "./lines/index.ts"
import { stramatel452m } from "./stramatel-452m/index.ts"

/** Every scoreboard protocol the bridge speaks. Adding a controller: one folder, one line here. */
export const protocols: Readonly<Record<string, ProtocolDefinition<any>>> = {
  [daktronicsRtd.name]: daktronicsRtd,
  [stramatel452m.name]: stramatel452m,
  [bodetScorepad.name]: bodetScorepad,
  [fairplayMp70.name]: fairplayMp70,
  [lines.name]: lines,
  [json.name]: json
}

export const protocolNames = Object.keys(protocols)
