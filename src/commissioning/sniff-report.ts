import type { Reading } from "../domain/reading.ts"
import { formatHostPort } from "../domain/host-port.ts"
import type { ProtocolResult, SportResult } from "./recognise.ts"
import type { SerialOptions } from "../transport/serial.ts"
import { framingFlags, framingKeys, framingLabel } from "./serial-framing.ts"
import type { NetworkLink } from "./source.ts"
import type { TextGuess } from "./text-guess.ts"

const shown = ({ receivedAt: _, ...fields }: Reading): string => JSON.stringify(fields)

/** How sniff heard the controller: the words for the report and the link's part of the config to paste. */
export interface HeardVia {
  /** "at 19200 baud", "from console 192.168.1.60:51234". */
  readonly how: string
  /** The link's lines of the snippet, under `scoreboard:`. */
  readonly config: ReadonlyArray<string>
  /** Each chunk was one whole message (a UDP datagram), not a slice of a byte stream. */
  readonly messages: boolean
  /** The capture command for this link, for support. */
  readonly capture: string
}

/** A serial line: its speed and framing (8N1 or not) in the words, the config's keys and the capture's flags. */
export const viaSerial = (line: SerialOptions): HeardVia => ({
  how: `at ${line.baudRate} baud ${framingLabel(line)}`,
  config: [
    "      serial:",
    `        path: ${line.path}`,
    `        baudRate: ${line.baudRate}`,
    ...framingKeys(line).map(([key, value]) => `        ${key}: ${value}`)
  ],
  messages: false,
  capture: `scorebridge capture --port ${line.path} --baud ${line.baudRate}${framingFlags(line)} --out capture.ndjson`
})

export const viaNetwork = (link: NetworkLink, from: string): HeardVia => {
  const address = formatHostPort(link.endpoint)
  const [block, key] = link._tag === "tcp-listen" ? ["tcp", "listen"] : link._tag === "tcp-connect" ? ["tcp", "connect"] : ["udp", "listen"]
  return {
    how: `from ${from}`,
    config: [`      ${block}:`, `        ${key}: ${address}`],
    messages: link._tag === "udp-listen",
    capture: `scorebridge capture --${link._tag} ${address} --out capture.ndjson`
  }
}

const snippetHeader = "Config for this controller (under the place's entry in places:):"

const orList = (items: ReadonlyArray<string>) => items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`

/** The `sport:` lines of a report whose frames are of one kind: one sport, or a code several sports share. */
const namedSport = (result: SportResult): { readonly said: string; readonly snippet: string } => {
  const family = result.family
  if (family === undefined) return { said: `  sport: ${result.sport}`, snippet: `    sport: ${result.sport}` }
  if (family.sports.length === 1) return { said: `  sport: ${result.sport} (${family.words})`, snippet: `    sport: ${result.sport}` }
  return {
    said: `  sport: ${family.words}; the frames do not say which: set sport: to the one played here (${orList(family.sports)})`,
    snippet: `    # sport: ${family.sports.join(" | ")}   (the one played here; or leave it out to use the service's, needs service.companyKey)`
  }
}

/** What sniff prints once a decoder read the bytes cleanly, ending with the config to paste. */
export const recognisedReport = (result: ProtocolResult, via: HeardVia): ReadonlyArray<string> => {
  const [first] = result.sports
  const named = result.sports.length === 1 ? namedSport(first!) : undefined
  return [
    `Recognised ${result.protocol} ${via.how}: ${result.frames} frames decoded, ${result.badFrames} bad.`,
    ...(result.variant === undefined ? [] : [`  variant: ${result.variant.name} — ${result.variant.words}`]),
    ...(named !== undefined
      ? [named.said, `  sample reading: ${first!.sample === undefined ? "none" : shown(first!.sample)}`]
      : [
        "  The stream does not say which sport the console runs; each of these layouts reads it (compare with the board):",
        ...result.sports.map((s) => `    ${s.sport}: ${s.sample === undefined ? "no reading" : shown(s.sample)}`)
      ]),
    // With the line's own settings: a capture at capture's defaults (19200 8N1) would record noise from this console.
    `  to record it (replay, support): ${via.capture}`,
    "",
    snippetHeader,
    named !== undefined
      ? named.snippet
      : `    # sport: the stream does not name it: set the place's sport (e.g. ${first!.sport}), or leave it out to use the service's (needs service.companyKey)`,
    "    scoreboard:",
    `      protocol: ${result.protocol}`,
    ...via.config,
    ...variantOptions(result)
  ]
}

/** The options that choose a variant other than the default, as lines of the snippet. */
const variantOptions = ({ variant }: ProtocolResult): ReadonlyArray<string> => {
  const options = Object.entries(variant?.options ?? {})
  return options.length === 0 ? [] : ["      options:", ...options.map(([key, value]) => `        ${key}: ${value}`)]
}

/** Text or JSON: the protocol is clear, but which column is which only the technician can say. */
export const textReport = (guess: TextGuess, via: HeardVia): ReadonlyArray<string> => {
  const protocol = guess.kind === "JSON lines" ? "json" : "lines"
  const what = via.messages ? `${guess.kind === "JSON lines" ? "JSON documents" : "text"}, one per datagram,` : guess.kind
  const counted = via.messages && protocol === "json" ? `${guess.lines} documents` : `${guess.lines} lines`
  const framing = !via.messages
    ? []
    : protocol === "json"
    ? ["Each datagram is one document: the json protocol's framing: message, which the bridge sets by itself on a udp: link."]
    : ["The lines protocol reads text ending in a line break: each datagram must end with one."]
  const replayOptions = via.messages && protocol === "json" ? `'{"framing":"message","fields":…}'` : "'…'"
  return [
    `Looks like ${what} ${via.how} (${counted}), e.g.:`,
    `  ${guess.sample}`,
    `No decoder can read it without knowing where each field is: use the ${protocol} protocol and map the fields (see adapters/${protocol}/README.md),`,
    `then check the result with: ${via.capture}, and scorebridge replay --protocol ${protocol} --options ${replayOptions} capture.ndjson`,
    ...framing,
    "",
    snippetHeader,
    "    scoreboard:",
    `      protocol: ${protocol}`,
    ...via.config,
    `      options: {}   # fill in: the ${protocol} protocol's field map`
  ]
}

/** One line per listening where bytes came but nothing decoded cleanly. */
export const unrecognisedLine = (byteCount: number, results: ReadonlyArray<ProtocolResult>): string => {
  const framed = results.filter((r) => r.frames + r.badFrames > 0).map((r) => `${r.protocol} ${r.frames} frames, ${r.badFrames} bad`)
  return `  ${byteCount} bytes, nothing recognised${framed.length === 0 ? "" : ` (${framed.join("; ")})`}`
}

/** After every speed and framing tried (`framings`: "8N1", "8E1"): what to check. */
export const nothingRecognisedAdvice = (anyBytes: boolean, framings: ReadonlyArray<string>): string =>
  anyBytes
    ? `Bytes arrived but no decoder read them at any speed and framing tried (${orList(framings)}). Check the controller's output mode (Daktronics: RTD on J6; Stramatel: "Interface TV"), `
      + "the line settings in its setup (speed, data bits, parity, stop bits), and record a capture for support: scorebridge capture --port … --out capture.ndjson"
    : "Nothing arrived at any speed. Check that the controller is on and its data output is enabled, that the cable goes to its data port (Daktronics: J6), and for RS-485 try swapping the A and B wires."

/** After listening on a network link: what to check when nothing was recognised. */
export const networkNothingRecognisedAdvice = (link: NetworkLink, via: HeardVia, anyBytes: boolean, seconds: number): string => {
  const settings = "the converter's serial settings (speed, 8N1, RS-232 or RS-485) in its web page: they must match the console's"
  if (anyBytes) {
    return `Bytes arrived but no decoder read them. Check the console's output mode (Bodet: its network output; Stramatel: "Interface TV")`
      + `${link._tag === "tcp-connect" ? `, and ${settings}` : ""}. Record a capture for support: ${via.capture}`
  }
  return link._tag === "tcp-connect"
    ? `${formatHostPort(link.endpoint)} accepted the connection but sent nothing in ${seconds} s: the console side is silent or its line settings are wrong. `
      + `Check that the console is on with its data output enabled, the cable from the console to the converter, and ${settings}.`
    : `The console ${link._tag === "udp-listen" ? "sent only empty datagrams" : "connected but sent nothing"} in ${seconds} s: check that its data output is enabled and set to send the score.`
}

/** No console connected (tcp listen), or no datagram came (udp listen), while sniff waited. */
export const noConsoleAdvice = (link: NetworkLink, waitSeconds: number): string => {
  const address = formatHostPort(link.endpoint)
  const port = link.endpoint.port
  const [what, proto] = link._tag === "udp-listen" ? [`No datagram arrived on ${address}`, "udp"] : [`No console connected to ${address}`, "tcp"]
  return `${what} within ${waitSeconds} s. Check the console's network output: it must send to this machine's IP address (hostname -I lists them) and port ${port}, over ${proto.toUpperCase()}; `
    + `check that both are on the same network (ping the console), and that the firewall lets it in (sudo ufw allow ${port}/${proto}).`
}
