import { Schema } from "effect"

/**
 * What `POST /api/buttons/listen` asks to listen on. The links are loose here: each is checked as
 * the `buttons:` entry it would become (button-entry.ts), so the page hears the config's own words.
 * Devices are named by their listed paths (page-devices.ts); nothing here names a program: GPIO
 * lines are read with the package's gpiomon.
 */
export const CaptureRequest = Schema.Struct({
  sources: Schema.Struct({
    /** The config's broker unless `url` names another. */
    mqtt: Schema.optionalKey(Schema.Struct({ url: Schema.optionalKey(Schema.String) })),
    serial: Schema.optionalKey(Schema.Struct({
      path: Schema.String,
      baudRate: Schema.optionalKey(Schema.Number),
      dataBits: Schema.optionalKey(Schema.Number),
      parity: Schema.optionalKey(Schema.String),
      stopBits: Schema.optionalKey(Schema.Number),
      /** serial-buttons' line pattern, when the microcontroller does not send `BTN 1 single`. */
      pattern: Schema.optionalKey(Schema.String)
    })),
    device: Schema.optionalKey(Schema.String),
    gpio: Schema.optionalKey(Schema.Struct({
      chip: Schema.String,
      lines: Schema.Array(Schema.Number),
      activeLow: Schema.optionalKey(Schema.Boolean)
    }))
  })
})
export type CaptureRequest = typeof CaptureRequest.Type
export type CaptureSources = CaptureRequest["sources"]

/** Said to a request that names the GPIO tool: the setup server runs no program the page names. */
export const gpioCommandRefused =
  "sources.gpio.command: the page does not name a program; GPIO lines are read with the package's gpiomon (only a config edited by hand names another)"

/** The request names a program (`sources.gpio.command`), which the page never may. */
export const namesProgram = (body: unknown): boolean => {
  const gpio = (body as { sources?: { gpio?: unknown } } | undefined)?.sources?.gpio
  return typeof gpio === "object" && gpio !== null && Object.hasOwn(gpio, "command")
}
