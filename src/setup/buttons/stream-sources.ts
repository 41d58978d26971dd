import { basename } from "node:path"
import type { Stream } from "effect"
import { keyCodes } from "../../../adapters/input-event/keys.ts"
import type { ButtonEvent } from "../../domain/button.ts"
import type { LinkState, ReceivedChunk } from "../../domain/received.ts"
import { gpiomonChunks } from "../../transport/gpiomon.ts"
import { serialChunks } from "../../transport/serial.ts"
import type { DeviceKind } from "../steps/page-devices.ts"
import { type ButtonEntry, nameFrom } from "./button-entry.ts"
import { nonBlockingInputChunks } from "./input-reads.ts"
import type { CaptureSources } from "./capture-request.ts"

/**
 * A source read as a byte stream (serial-buttons, input-event, gpiomon): the entry it would be in
 * the config (name included: its decoder reads with it), the device it names (checked before it
 * opens), and its link opened on the character device behind that name as the daemon opens it.
 */
export interface StreamSource {
  readonly link: "serial" | "device" | "gpio"
  readonly target: string
  readonly entry: ButtonEntry
  readonly named: { readonly kind: DeviceKind; readonly path: string }
  readonly open: (device: string, onState: (state: LinkState) => void) => Stream.Stream<ReceivedChunk>
  readonly describe: (press: ButtonEvent) => string
}

type SerialRequest = NonNullable<CaptureSources["serial"]>
type GpioRequest = NonNullable<CaptureSources["gpio"]>

const keyName = (code: string): string =>
  Object.entries(keyCodes).find(([, value]) => String(value) === code)?.[0] ?? `code ${code}`

export const serialSource = (request: SerialRequest): StreamSource => {
  const { pattern, ...line } = request
  const name = nameFrom(basename(line.path), "serial-buttons")
  const entry = {
    name,
    type: "serial-buttons",
    serial: line,
    ...(pattern === undefined ? {} : { options: { pattern } })
  } as ButtonEntry
  return {
    link: "serial",
    target: line.path,
    entry,
    named: { kind: "serial", path: line.path },
    // 9600 8N1 unless given: what the daemon opens a serial-buttons port with (daemon/button-chunks.ts).
    open: (device, onState) => serialChunks({
      path: device,
      baudRate: line.baudRate ?? 9600,
      dataBits: line.dataBits === 7 ? 7 : 8,
      parity: line.parity === "even" || line.parity === "odd" ? line.parity : "none",
      stopBits: line.stopBits === 2 ? 2 : 1
    }, onState),
    describe: (press) => `serial-buttons on ${line.path}: button ${press.button}, ${press.gesture}`
  }
}

export const deviceSource = (device: string): StreamSource => {
  const name = nameFrom(basename(device), "input-buttons")
  return {
    link: "device",
    target: device,
    entry: { name, type: "input-event", device },
    named: { kind: "input", path: device },
    open: (opened, onState) => nonBlockingInputChunks(opened, onState),
    describe: (press) => `input device ${basename(device)}: ${keyName(press.button)} (key ${press.button}), ${press.gesture}`
  }
}

export const gpioSource = (request: GpioRequest): StreamSource => {
  const { activeLow, ...gpio } = request
  const name = nameFrom(`gpio-${basename(gpio.chip)}`, "gpio-buttons")
  return {
    link: "gpio",
    target: `${gpio.chip} lines ${gpio.lines.join(", ")}`,
    entry: { name, type: "gpiomon", gpio, ...(activeLow === undefined ? {} : { options: { activeLow } }) },
    named: { kind: "gpio", path: gpio.chip },
    // The package's gpiomon (gpiomonChunks' default): never a program the page names.
    open: (chip, onState) => gpiomonChunks({ chip, lines: gpio.lines }, onState),
    describe: (press) => `GPIO ${gpio.chip} line ${press.button}, ${press.gesture}`
  }
}

/** The byte-stream sources a request names, in a fixed order. */
export const streamSources = (sources: CaptureSources): ReadonlyArray<StreamSource> => [
  ...(sources.serial === undefined ? [] : [serialSource(sources.serial)]),
  ...(sources.device === undefined ? [] : [deviceSource(sources.device)]),
  ...(sources.gpio === undefined ? [] : [gpioSource(sources.gpio)])
]
