import { rmSync } from "node:fs"
import { Effect, Schema } from "effect"
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest"
import { parse } from "yaml"
import { openSerialSession } from "../../src/commissioning/serial-session.ts"
import { framingLabel, type SerialFraming } from "../../src/commissioning/serial-framing.ts"
import { viaSerial } from "../../src/commissioning/sniff-report.ts"
import { SerialLine } from "../../src/config/place.ts"
import { type PtyPair, startPtyPair } from "../../scripts/support/pty.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { heldLineSettings } from "./support.ts"

const scratch = tempDir("serial-framing")
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

let pty: PtyPair
beforeEach(async () => {
  pty = await startPtyPair(scratch)
})
afterEach(() => pty.stop())

const heldWhileOpen = (baudRate: number, framing: SerialFraming) =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    yield* openSerialSession({ path: pty.daemonPath, baudRate, ...framing }, () => {})
    return heldLineSettings(pty.daemonPath)
  })))

describe("commissioning serial sessions open with the framing asked", () => {
  it("opens odd or even parity and one or two stop bits as asked: 7O2, then 8E1 (a console sending 8E1 opened as 8N1 would stay odd here), then 8N2", async () => {
    expect(await heldWhileOpen(2400, { dataBits: 7, parity: "odd", stopBits: 2 })).toEqual({ speed: 2400, parodd: true, cstopb: true })
    expect(await heldWhileOpen(9600, { dataBits: 8, parity: "even", stopBits: 1 })).toEqual({ speed: 9600, parodd: false, cstopb: false })
    expect(await heldWhileOpen(19200, { dataBits: 8, parity: "none", stopBits: 2 })).toMatchObject({ speed: 19200, cstopb: true })
  })
})

describe("sniff's words, config lines and capture command for a serial line", () => {
  const snippet = (lines: ReadonlyArray<string>) => parse(lines.join("\n")) as { serial: unknown }

  it.each([
    [{ dataBits: 8, parity: "even", stopBits: 1 }, "8E1", { parity: "even" }, " --parity even "],
    [{ dataBits: 7, parity: "odd", stopBits: 2 }, "7O2", { dataBits: 7, parity: "odd", stopBits: 2 }, " --data-bits 7 --parity odd --stop-bits 2 "],
    [{ dataBits: 8, parity: "none", stopBits: 1 }, "8N1", {}, " --out "]
  ] as const)("%o: says %s, and the config lines are a place's serial: block with that framing", (framing, label, keys, flags) => {
    const via = viaSerial({ path: "/dev/serial/by-id/usb-FTDI-port0", baudRate: 9600, ...framing })
    expect(via.how).toBe(`at 9600 baud ${label}`)
    const serial = Schema.decodeUnknownSync(SerialLine)(snippet(via.config).serial)
    // 8N1 is every console's default but one: only the keys that differ are written.
    expect(serial).toEqual({ path: "/dev/serial/by-id/usb-FTDI-port0", baudRate: 9600, maxFrameBytes: 4096, ...keys })
    expect(via.capture).toContain(`--baud 9600${flags}`)
    expect(framingLabel(framing)).toBe(label)
  })
})
