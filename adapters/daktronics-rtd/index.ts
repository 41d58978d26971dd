import type { ProtocolDefinition } from "../decoder.ts"
import { makeDaktronicsDecoder } from "./decoder.ts"
import { DaktronicsOptions } from "./options.ts"
import { sportCodes } from "./sports.ts"

export type { DaktronicsStats } from "./decoder.ts"
export { DaktronicsOptions } from "./options.ts"

/** Daktronics All Sport 5000 RTD output (console I/O port J6). */
export const daktronicsRtd: ProtocolDefinition<DaktronicsOptions> = {
  name: "daktronics-rtd",
  description: "Daktronics All Sport 5000 Real Time Data (RTD) serial output",
  serialDefaults: { baudRate: 19200, dataBits: 8, parity: "none", stopBits: 1 },
  updates: "partial",
  sports: sportCodes,
  optionsSchema: DaktronicsOptions,
  makeDecoder: makeDaktronicsDecoder
}
