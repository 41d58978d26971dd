import type { Decoder, ProtocolDefinition } from "../decoder.ts"
import { coloradoLearning } from "./learn.ts"
import { type ColoradoStats, makeColoradoDecoder } from "./line-decoder.ts"
import { type ColoradoOptions, optionsSchema, sportProblems } from "./options.ts"

export type { ColoradoStats } from "./line-decoder.ts"
export type { ColoradoOptions } from "./options.ts"

/** Colorado Time Systems aquatics consoles' legacy scoreboard line (../shared/protocols/colorado-cts.md). */
export const coloradoCts: ProtocolDefinition<ColoradoOptions> = {
  name: "colorado-cts",
  description: "Colorado Time Systems System 6 / Gen7 (legacy output) aquatics console, scoreboard line: swimming race clock, "
    + "event, heat and lanes (place and time); team scores, period and game clock by channel when configured",
  summary: "Colorado Time Systems System 6 / Gen7, legacy scoreboard line",
  maker: "Colorado Time Systems",
  model: "System 6 / Gen7 (legacy scoreboard output)",
  wiring: "The console's scoreboard output, a 1/4\" mono jack (tip = transmit, sleeve = ground): tap it with a Y cable so the "
    + "board stays connected, tip to DB-9 pin 2 (RX) and sleeve to pin 5 (GND) of a USB-RS-232 adapter. 9600 baud, 8 data bits, "
    + "even parity, 1 stop bit (8E1); 2400 baud in the console's slow scoreboard mode (Setup → Scoreboard → High Speed). "
    + "The console never answers. One builder's RS-232 level shifter ran hot on this line until he added a series resistor on its receive side.",
  serialDefaults: { baudRate: 9600, dataBits: 8, parity: "even", stopBits: 1 },
  // Every reading carries the whole board (the race, or the fields read); nothing is settled.
  updates: "full",
  sports: ["swimming", "waterpolo"],
  optionsSchema,
  sportProblems,
  example: [
    "protocol: colorado-cts",
    "serial:",
    "  path: /dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A10KQ3ZP-if00-port0"
  ].join("\n"),
  // The console's slow scoreboard mode sends at 2400, same framing.
  recognise: { otherBaudRates: [2400] },
  learn: coloradoLearning,
  makeDecoder(options): Decoder & { readonly stats: ColoradoStats } {
    return makeColoradoDecoder(options)
  }
}
