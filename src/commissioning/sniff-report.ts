import type { Reading } from "../domain/reading.ts"
import type { ProtocolResult } from "./recognise.ts"
import type { TextGuess } from "./text-guess.ts"

const shown = ({ receivedAt: _, ...fields }: Reading): string => JSON.stringify(fields)

const serialLines = (path: string, baudRate: number): ReadonlyArray<string> => [
  "      serial:",
  `        path: ${path}`,
  `        baudRate: ${baudRate}`
]

const snippetHeader = "Config for this controller (under the place's entry in places:):"

/** What sniff prints once a decoder read the bytes cleanly, ending with the config to paste. */
export const recognisedReport = (result: ProtocolResult, path: string, baudRate: number): ReadonlyArray<string> => {
  const [first] = result.sports
  const named = result.sports.length === 1
  return [
    `Recognised ${result.protocol} at ${baudRate} baud: ${result.frames} frames decoded, ${result.badFrames} bad.`,
    ...(named
      ? [`  sport: ${first!.sport}`, `  sample reading: ${first!.sample === undefined ? "none" : shown(first!.sample)}`]
      : [
        "  The stream does not say which sport the console runs; each of these layouts reads it (compare with the board):",
        ...result.sports.map((s) => `    ${s.sport}: ${s.sample === undefined ? "no reading" : shown(s.sample)}`)
      ]),
    "",
    snippetHeader,
    named
      ? `    sport: ${first!.sport}`
      : `    # sport: the stream does not name it: set the place's sport (e.g. ${first!.sport}), or leave it out to use the service's (needs service.companyKey)`,
    "    scoreboard:",
    `      protocol: ${result.protocol}`,
    ...serialLines(path, baudRate)
  ]
}

/** Text or JSON lines: the protocol is clear, but which column is which only the technician can say. */
export const textReport = (guess: TextGuess, path: string, baudRate: number): ReadonlyArray<string> => {
  const protocol = guess.kind === "JSON lines" ? "json" : "lines"
  return [
    `Looks like ${guess.kind} at ${baudRate} baud (${guess.lines} lines), e.g.:`,
    `  ${guess.sample}`,
    `No decoder can read it without knowing where each field is: use the ${protocol} protocol and map the fields (see adapters/${protocol}/README.md),`,
    `then check the result with: scorebridge capture, and scorebridge replay --protocol ${protocol} --options '…' on the capture.`,
    "",
    snippetHeader,
    "    scoreboard:",
    `      protocol: ${protocol}`,
    ...serialLines(path, baudRate),
    `      options: {}   # fill in: the ${protocol} protocol's field map`
  ]
}

/** One line per speed where bytes came but nothing decoded cleanly. */
export const unrecognisedLine = (byteCount: number, results: ReadonlyArray<ProtocolResult>): string => {
  const framed = results.filter((r) => r.frames + r.badFrames > 0).map((r) => `${r.protocol} ${r.frames} frames, ${r.badFrames} bad`)
  return `  ${byteCount} bytes, nothing recognised${framed.length === 0 ? "" : ` (${framed.join("; ")})`}`
}

export const nothingRecognisedAdvice = (anyBytes: boolean): string =>
  anyBytes
    ? "Bytes arrived but no decoder read them at any speed tried. Check the controller's output mode (Daktronics: RTD on J6; Stramatel: \"Interface TV\"), the line settings (8N1), and record a capture for support: scorebridge capture --port … --out capture.ndjson"
    : "Nothing arrived at any speed. Check that the controller is on and its data output is enabled, that the cable goes to its data port (Daktronics: J6), and for RS-485 try swapping the A and B wires."
