import type { ProtocolDefinition } from "../decoder.ts"
import { makeDaktronicsDecoder } from "./decoder.ts"
import { daktronicsLearning } from "./learn.ts"
import { DaktronicsOptions } from "./options.ts"
import { sportCodes } from "./sports.ts"

export type { DaktronicsStats } from "./decoder.ts"
export { DaktronicsOptions } from "./options.ts"

/** Daktronics All Sport 5000 RTD output (console I/O port J6). */
export const daktronicsRtd: ProtocolDefinition<DaktronicsOptions> = {
  name: "daktronics-rtd",
  description: "Daktronics All Sport 5000 Real Time Data (RTD) serial output",
  summary: "Daktronics All Sport 5000, RTD output on J6",
  serialDefaults: { baudRate: 19200, dataBits: 8, parity: "none", stopBits: 1 },
  updates: "partial",
  sports: sportCodes,
  optionsSchema: DaktronicsOptions,
  example: [
    "protocol: daktronics-rtd",
    "serial:",
    "  path: /dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A10K1234-if00-port0"
  ].join("\n"),
  // Every sport reads the same buffer: only the sports whose layouts differ are worth trying.
  recognise: { sports: ["basketball", "volleyball", "tennis", "football"] },
  learn: daktronicsLearning,
  makeDecoder: makeDaktronicsDecoder
}
