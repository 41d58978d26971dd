import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SerialPort } from "serialport"
import { eventually } from "../../scripts/support/eventually.ts"
import { openWriter, type PtyPair, type PtyWriter, startPtyPair } from "../../scripts/support/pty.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { promptReadBinding } from "../../src/transport/prompt-serial-reads.ts"

/**
 * What the stamp of a frame waits for after its bytes arrive. The loop is held (as by a burst of
 * score changes being stored) while the console's bytes come in; then the loop's next turn runs.
 * With prompt reads the bytes are read, and so stamped, in the turn that finds the port readable,
 * before anything queued for that turn's end (setImmediate); serialport's own read goes to the
 * thread pool there, and its bytes come a turn later.
 */
const orderAfterStall = async (pty: PtyPair, writer: PtyWriter, binding: typeof SerialPort.binding | undefined) => {
  const port = new SerialPort({ path: pty.daemonPath, baudRate: 9600, autoOpen: false, ...(binding === undefined ? {} : { binding }) } as ConstructorParameters<typeof SerialPort>[0])
  const order: Array<string> = []
  port.on("data", () => order.push("bytes"))
  await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())))
  try {
    // A first frame: the port is reading, its read waiting for the next bytes.
    writer.write("warm-up\n")
    await eventually("the first bytes", () => (order.length > 0 ? true : undefined))
    order.length = 0
    await new Promise<void>((resolve) => setTimeout(() => {
      writer.write("frame\n")
      // socat relays the bytes to the port meanwhile, in its own process.
      const until = performance.now() + 200
      while (performance.now() < until) { /* the loop held */ }
      setImmediate(() => order.push("end of the turn"))
      resolve()
    }, 10))
    await eventually("the frame's bytes", () => (order.includes("bytes") && order.includes("end of the turn") ? true : undefined))
    return order
  } finally {
    await new Promise<void>((resolve) => port.close(() => resolve()))
  }
}

describe("prompt serial reads (src/transport/prompt-serial-reads.ts)", () => {
  let pty: PtyPair
  let writer: PtyWriter
  beforeAll(async () => {
    pty = await startPtyPair(tempDir("prompt-reads"))
    writer = openWriter(pty.writerPath)
  })
  afterAll(async () => {
    writer.close()
    await pty.stop()
  })

  it("reads a port's bytes in the loop's turn that finds them, before that turn's end", async () => {
    expect(await orderAfterStall(pty, writer, promptReadBinding)).toEqual(["bytes", "end of the turn"])
  })

  it("(serialport's own read, for comparison: a turn later)", async () => {
    expect(await orderAfterStall(pty, writer, undefined)).toEqual(["end of the turn", "bytes"])
  })
})
