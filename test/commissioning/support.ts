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
