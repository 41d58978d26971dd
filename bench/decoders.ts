import { measureDecoder } from "./decode-throughput.ts"
import { daemonNodeFlags, measureDecodersUnderDaemonFlags } from "./decode-under-daemon-flags.ts"
import { type Heading, say } from "./report.ts"
import { round2 } from "./stats.ts"

export interface DecoderFigures {
  /** MB/s per protocol in a child Node with the daemon's flags: what the daemon gets, and what the target is about. */
  readonly asDaemon: Record<string, number>
  /** MB/s per protocol in-process with the JIT, for comparison only. */
  readonly withJit: Record<string, number>
  readonly flags: string
}

/** The decoders' throughput, in-process: no venue or daemon needed, so it runs before them. */
export const decoderPhase = async (heading: Heading): Promise<DecoderFigures> => {
  const flags = daemonNodeFlags().join(" ")
  heading(`decoders (target ≥ 1.5 MB/s each): under the daemon's flags (${flags}), and with the JIT`)
  const protocolNames = ["daktronics-rtd", "stramatel-452m", "lines", "json"] as const
  const asDaemon = await measureDecodersUnderDaemonFlags(protocolNames)
  const figures: DecoderFigures = { asDaemon: {}, withJit: {}, flags }
  for (const protocol of protocolNames) {
    const figure = measureDecoder(protocol)
    figures.asDaemon[protocol] = round2(asDaemon[protocol]!)
    figures.withJit[protocol] = round2(figure.mbPerS)
    say(`  ${protocol.padEnd(15)} ${asDaemon[protocol]!.toFixed(1).padStart(7)} MB/s as the daemon runs, ${figure.mbPerS.toFixed(1).padStart(6)} MB/s with the JIT  (${figure.frames} frames, ${figure.readings} readings)`)
  }
  return figures
}
