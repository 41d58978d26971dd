import { readSync } from "node:fs"
import { SerialPort } from "serialport"

type Binding = typeof SerialPort.binding
type OpenOptions = Parameters<Binding["open"]>[0]
type PortBinding = Awaited<ReturnType<Binding["open"]>>

/** What a Unix port binding (Linux, macOS) has beside the interface: its descriptor and its poller. */
interface UnixPort {
  readonly fd: number | null
  readonly isOpen: boolean
  readonly poller: { once(event: "readable", callback: (error: Error | null) => void): unknown }
}

const isUnixPort = (port: PortBinding): port is PortBinding & UnixPort => "poller" in port && "fd" in port

// As @serialport/bindings-cpp's unixRead: try again once readable; these end the port as unplugged.
const tryAgain = new Set(["EAGAIN", "EWOULDBLOCK", "EINTR"])
const unplugged = new Set(["EBADF", "ENXIO", "UNKNOWN"])

const readable = (port: UnixPort) =>
  new Promise<void>((resolve, reject) => port.poller.once("readable", (error) => (error === null ? resolve() : reject(error))))

/**
 * Reads a port's bytes as soon as its poller says there are some, on the event loop. The port is
 * open non-blocking, so the read takes what the kernel already holds (microseconds) or fails
 * EAGAIN. serialport's own read asks libuv's thread pool instead, and its answer waits for the
 * loop's next turn: a second turn before the bytes are stamped, 1 ms typically and 5–11 ms
 * while the loop is busy with a burst of score changes (issue 34, bench slow-disk phase).
 */
const promptRead = (port: UnixPort) => async (buffer: Buffer, offset: number, length: number) => {
  for (;;) {
    if (!port.isOpen || port.fd === null) throw Object.assign(new Error("Port is not open"), { canceled: true })
    try {
      const bytesRead = readSync(port.fd, buffer, offset, length, null)
      if (bytesRead > 0) return { buffer, bytesRead }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? ""
      if (!tryAgain.has(code)) {
        if (unplugged.has(code) || (error as NodeJS.ErrnoException).errno === -1) Object.assign(error as object, { disconnect: true })
        throw error
      }
    }
    await readable(port)
  }
}

/** serialport's binding for this platform, its Unix ports reading promptly (see promptRead); Windows' as it is. */
export const promptReadBinding: Binding = {
  ...SerialPort.binding,
  open: async (options: OpenOptions) => {
    const port = await (SerialPort.binding.open as (options: OpenOptions) => Promise<PortBinding>)(options)
    if (isUnixPort(port)) Object.assign(port, { read: promptRead(port) })
    return port
  }
} as Binding
