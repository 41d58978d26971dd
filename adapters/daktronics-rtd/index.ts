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
  maker: "Daktronics",
  model: "All Sport 5000",
  wiring: "The console's DB-25 \"I/O port (J6)\", RS-232: it transmits on pin 2, ground is pin 7. "
    + "A DB-25 to DB-9 cable into a USB-RS-232 adapter (FTDI). 19200 baud, 8 data bits, no parity, 1 stop bit. "
    + "The console sends its whole state only now and then (e.g. with the clock stopped): until then the reading may stay empty.",
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
