import { openWriter, startPtyPair } from "../../scripts/support/pty.ts"
import type { SimulatedConsole } from "./consoles/console.ts"
import { type Bridge, type BridgeOptions, expectDelivered, expectModelShape, play, type Resources, type Sport, startBridge, waitForSerialConnects, type WriteTimes } from "./harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { expectedEntries, type Step } from "./matches/match.ts"

/**
 * A console on a socat pty pair, the daemon on the other end. The writer is
 * opened only once the daemon has the port open: bytes written before would
 * queue in the pty and arrive late, stamped when read (see testing notes).
 */
export const startPtyBridge = async (res: Resources, sport: Sport, console: SimulatedConsole<never>, options: BridgeOptions = {}) => {
  const pty = await startPtyPair(tempDir("scoreboard-pty", res))
  res.defer(() => pty.stop())
  const bridge: Bridge = await startBridge(res, sport, console, { serial: pty.daemonPath }, options)
  await waitForSerialConnects(bridge, 1)
  const writer = openWriter(pty.writerPath)
  res.defer(() => writer.close())
  return { pty, bridge, writer }
}

/** Plays a whole match over a pty and checks every entry the simulator received. */
export const playMatchOverPty = async <B, E>(
  res: Resources,
  sport: Sport,
  console: SimulatedConsole<B>,
  steps: ReadonlyArray<Step<B>>,
  entryOf: (board: B) => E
): Promise<void> => {
  const expected = expectedEntries(steps, entryOf)
  expectModelShape(steps, expected)
  const { bridge, writer } = await startPtyBridge(res, sport, console as SimulatedConsole<never>)
  const written: WriteTimes = []
  await play(steps, console, writer.write, written)
  await expectDelivered(bridge, expected, written)
}
