import { execFileSync } from "node:child_process"
import { closeSync, constants, openSync, writeSync } from "node:fs"
import { startScorebridge } from "../../scripts/support/scorebridge-process.ts"

/** Commissioning commands run as real processes: `scorebridge sniff|capture|doctor|replay …`. */
export { runScorebridge as runCli, type ScorebridgeProcess as Started } from "../../scripts/support/scorebridge-process.ts"
export const startCli = (command: string, args: ReadonlyArray<string>) => startScorebridge([command, ...args])

/**
 * Plays bytes into the writer end of a pty pair, `piece` bytes every `everyMs`,
 * looping over `bytes` until stopped. Non-blocking: while nobody reads the
 * other end, socat's buffer fills and the excess is dropped rather than
 * blocking the test worker.
 */
export const playInLoop = (writerPath: string, bytes: Uint8Array, piece = 256, everyMs = 10): { readonly stop: () => void } => {
  const fd = openSync(writerPath, constants.O_WRONLY | constants.O_NOCTTY | constants.O_NONBLOCK)
  let offset = 0
  const timer = setInterval(() => {
    const end = Math.min(offset + piece, bytes.length)
    try {
      writeSync(fd, bytes, offset, end - offset)
    } catch (error) {
      if ((error as { code?: string }).code !== "EAGAIN") throw error
    }
    offset = end === bytes.length ? 0 : end
  }, everyMs)
  return {
    stop: () => {
      clearInterval(timer)
      closeSync(fd)
    }
  }
}

/**
 * The line settings the kernel holds for the port, as `stty` reads them. A pty keeps the
 * parity's sense (parodd) and the stop bits (cstopb) it is given, but always reports cs8 and
 * no parity check (-parenb); and opening with no parity leaves the sense as it was. So on a
 * pty the framing shows as odd or even after the other, and as the stop bits.
 */
export const heldLineSettings = (path: string) => {
  const words = execFileSync("stty", ["-a", "-F", path], { encoding: "utf8" }).split(/\s+/u)
  return { speed: Number(/speed (\d+) baud/u.exec(words.join(" "))![1]), parodd: words.includes("parodd"), cstopb: words.includes("cstopb") }
}
