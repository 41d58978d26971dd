import { rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { stringify } from "yaml"
import { protocolNames } from "../../adapters/registry.ts"
import { checkConfig } from "../../src/config/check.ts"
import { loadConfig } from "../../src/config/load.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

// A value that must never show up in any report.
const secret = "s3cr3t-T0KEN-9f8e7d"
process.env["SCOREBRIDGE_TOKEN"] = secret
process.env["EMPTY_TOKEN"] = "   "
delete process.env["NOT_SET_TOKEN"]
delete process.env["CREDENTIALS_DIRECTORY"]

const dir = tempDir("config")
afterAll(() => process.env.KEEP ? undefined : rmSync(dir, { recursive: true, force: true }))

const valid = () => ({
  service: { baseUrl: "https://api.example.com", token: { env: "SCOREBRIDGE_TOKEN" } as Record<string, unknown>, companyKey: "demo-org" } as Record<string, unknown>,
  places: [{
    key: "court-1",
    sport: "tennis",
    scoreboard: {
      protocol: "lines",
      serial: { path: "/dev/ttyUSB0" } as Record<string, unknown>,
      options: { delimiter: ",", fields: ["home", "away", "period"] } as Record<string, unknown>
    } as Record<string, unknown>
  } as Record<string, unknown>] as Array<Record<string, unknown>>
} as Record<string, any>)

const edit = (change: (config: Record<string, any>) => void) => {
  const config = valid()
  change(config)
  return stringify(config)
}

/** The valid config plus a broker, a two-button remote and its actions at court-1. */
const withButtons = (change: (config: Record<string, any>) => void) =>
  edit((c) => {
    c.mqtt = { url: "mqtt://127.0.0.1:1883" }
    c.buttons = [{ name: "remote", type: "zigbee2mqtt", mqtt: { topics: ["zigbee2mqtt/remote"] } }]
    c.places[0].actions = [
      { source: "remote", button: 1, gesture: "single", do: "highlight", team: "home" },
      { source: "remote", gesture: "hold", do: "undo" }
    ]
    c.places[0].teams = { home: { overlay: { imageSource: "https://cdn.example.com/home.png", heightPercentOfHeight: 10 } } }
    change(c)
  })

/** The valid config with its scoreboard reached over TCP as `tcp`. */
const tcpBoard = (tcp: Record<string, unknown>) =>
  edit((c) => {
    delete c.places[0].scoreboard.serial
    c.places[0].scoreboard.tcp = tcp
  })

const homeOverlay = (c: Record<string, any>) => c.places[0].teams.home.overlay

/** The valid config with court-1 playing `sport` and these auto-highlight rules. */
const autoRules = (sport: string, rules: ReadonlyArray<Record<string, unknown>>, change: (config: Record<string, any>) => void = () => {}) =>
  edit((c) => {
    c.places[0].sport = sport
    c.places[0].autoHighlights = rules
    change(c)
  })

interface Case {
  readonly name: string
  readonly yaml: string
  /** The field path a problem must name ("" for the file as a whole). */
  readonly path: string
  readonly message: string
  /** Where the problem must point, when the case pins it. */
  readonly at?: string
  /** Only found when secrets are resolved (checkConfig, not loadConfig). */
  readonly secretsOnly?: boolean
}

const cases: ReadonlyArray<Case> = [
  { name: "missing service", yaml: edit((c) => delete c.service), path: "service", message: "required, but missing" },
  { name: "missing baseUrl", yaml: edit((c) => delete c.service.baseUrl), path: "service.baseUrl", message: "required" },
  { name: "missing places", yaml: edit((c) => delete c.places), path: "places", message: "required" },
  { name: "no places", yaml: edit((c) => c.places = []), path: "places", message: "at least one place is required" },
  { name: "rate as text", yaml: edit((c) => c.service.requestsPerSecond = "fast"), path: "service.requestsPerSecond", message: `expected a number, got "fast"` },
  { name: "fractional timeout", yaml: edit((c) => c.service.timeoutMs = 2.5), path: "service.timeoutMs", message: "integer" },
  { name: "unknown top-level key", yaml: edit((c) => c.plaecs = []), path: "plaecs", message: `unknown key "plaecs"` },
  { name: "misspelt serial key", yaml: edit((c) => c.places[0].scoreboard.serial.baudrate = 9600), path: "places[0].scoreboard.serial.baudrate", message: `did you mean "baudRate"` },
  { name: "unknown protocol", yaml: edit((c) => c.places[0].scoreboard.protocol = "daktronix"), path: "places[0].scoreboard.protocol", message: `expected one of ${protocolNames.map((name) => `"${name}"`).join(", ")}, got "daktronix"` },
  { name: "relative serial path", yaml: edit((c) => c.places[0].scoreboard.serial.path = "dev/ttyUSB0"), path: "places[0].scoreboard.serial.path", message: `absolute device path` },
  { name: "serial and mqtt", yaml: edit((c) => { c.mqtt = { url: "mqtt://127.0.0.1:1883" }; c.places[0].scoreboard.mqtt = { topics: ["a/b"] } }), path: "places[0].scoreboard.mqtt", message: "not serial and mqtt — one scoreboard has one link" },
  { name: "no link at all", yaml: edit((c) => delete c.places[0].scoreboard.serial), path: "places[0].scoreboard", message: "give serial:, mqtt:, tcp: or udp:" },
  { name: "serial and tcp", yaml: edit((c) => c.places[0].scoreboard.tcp = { listen: "0.0.0.0:4001" }), path: "places[0].scoreboard.tcp", message: "not serial and tcp" },
  { name: "tcp listen and connect", yaml: tcpBoard({ listen: "0.0.0.0:4001", connect: "192.168.1.50:4001" }), path: "places[0].scoreboard.tcp.connect", message: "give either listen: (the console connects to the bridge) or connect:" },
  { name: "tcp with neither", yaml: tcpBoard({ quietSeconds: 5 }), path: "places[0].scoreboard.tcp", message: "give listen: HOST:PORT" },
  { name: "tcp listen without a port", yaml: tcpBoard({ listen: "0.0.0.0" }), path: "places[0].scoreboard.tcp.listen", message: "must be host:port, e.g. 0.0.0.0:4001" },
  { name: "tcp connect to port 0", yaml: tcpBoard({ connect: "192.168.1.50:0" }), path: "places[0].scoreboard.tcp.connect", message: "port 1–65535" },
  { name: "tcp from with connect", yaml: tcpBoard({ connect: "192.168.1.50:4001", from: "192.168.1.50" }), path: "places[0].scoreboard.tcp.from", message: "goes with listen:" },
  { name: "tcp quiet too short", yaml: tcpBoard({ listen: "0.0.0.0:4001", quietSeconds: 0 }), path: "places[0].scoreboard.tcp.quietSeconds", message: "between 1 and 3600, got 0" },
  { name: "udp from a host name", yaml: edit((c) => { delete c.places[0].scoreboard.serial; c.places[0].scoreboard.udp = { listen: "0.0.0.0:4002", from: "console.local" } }), path: "places[0].scoreboard.udp.from", message: "must be the console's IP address" },
  { name: "tcp listen on the status port", yaml: edit((c) => { c.status = { listen: "127.0.0.1:4001" }; delete c.places[0].scoreboard.serial; c.places[0].scoreboard.tcp = { listen: "0.0.0.0:4001" } }), path: "places[0].scoreboard.tcp.listen", message: "TCP 0.0.0.0:4001 is also used by status.listen: give each console its own port" },
  { name: "two consoles on one udp port", yaml: edit((c) => { delete c.places[0].scoreboard.serial; c.places[0].scoreboard.udp = { listen: "0.0.0.0:4002" }; c.places.push({ key: "court-2", sport: "tennis", scoreboard: { ...structuredClone(c.places[0].scoreboard) } }) }), path: "places[1].scoreboard.udp.listen", message: "is also used by places[0].scoreboard.udp.listen" },
  { name: "baud as text", yaml: edit((c) => c.places[0].scoreboard.serial.baudRate = "fast"), path: "places[0].scoreboard.serial.baudRate", message: `expected one of 1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, got "fast"` },
  { name: "non-standard baud", yaml: edit((c) => c.places[0].scoreboard.serial.baudRate = 12345), path: "places[0].scoreboard.serial.baudRate", message: "got 12345" },
  { name: "nine data bits", yaml: edit((c) => c.places[0].scoreboard.serial.dataBits = 9), path: "places[0].scoreboard.serial.dataBits", message: "one of 7, 8" },
  { name: "duplicate place keys", yaml: edit((c) => c.places.push(structuredClone(c.places[0]))), path: "places[1].key", message: `duplicate place key "court-1" (also places[0])` },
  { name: "unknown sport code", yaml: edit((c) => c.places[0].sport = "tenis"), path: "places[0].sport", message: `got "tenis" — did you mean "tennis"?` },
  // A boxing hall: a 452 M in boxing sends warnings where handball has its score; no sport code reads it.
  { name: "sport the protocol cannot read", yaml: edit((c) => { c.places[0].sport = "wrestling"; c.places[0].scoreboard = { protocol: "stramatel-452m", serial: { path: "/dev/ttyUSB0" } } }), path: "places[0].sport", message: `protocol stramatel-452m has no field layout for "wrestling"` },
  { name: "stramatel field outside the frame", yaml: edit((c) => { c.places[0].sport = "hockey"; c.places[0].scoreboard = { protocol: "stramatel-452m", serial: { path: "/dev/ttyUSB0" }, options: { fields: { home: "0x35 52-53" } } } }), path: "places[0].scoreboard.options.fields.home", message: "fields.home: bytes 52-53 are not inside a frame's data" },
  { name: "stramatel fields overlapping", yaml: edit((c) => { c.places[0].sport = "hockey"; c.places[0].scoreboard = { protocol: "stramatel-452m", serial: { path: "/dev/ttyUSB0" }, options: { fields: { period: "0x35 13" } } } }), path: "places[0].scoreboard.options.fields.period", message: "fields.period: 0x35 13 overlaps away at 0x35 12-13" },
  { name: "no sport and no companyKey", yaml: edit((c) => { delete c.places[0].sport; delete c.service.companyKey }), path: "places[0]", message: "has no sport" },
  { name: "baseUrl not a URL", yaml: edit((c) => c.service.baseUrl = "api.example.com"), path: "service.baseUrl", message: "must be a URL" },
  { name: "baseUrl plain http", yaml: edit((c) => c.service.baseUrl = "http://api.example.com"), path: "service.baseUrl", message: "must use https://" },
  { name: "baseUrl ftp", yaml: edit((c) => c.service.baseUrl = "ftp://api.example.com"), path: "service.baseUrl", message: "must start with https://" },
  { name: "token missing", yaml: edit((c) => delete c.service.token), path: "service.token", message: "required" },
  { name: "token env not set", yaml: edit((c) => c.service.token = { env: "NOT_SET_TOKEN" }), path: "service.token", message: "environment variable NOT_SET_TOKEN is not set", secretsOnly: true },
  { name: "token env empty", yaml: edit((c) => c.service.token = { env: "EMPTY_TOKEN" }), path: "service.token", message: "environment variable EMPTY_TOKEN is empty", secretsOnly: true },
  { name: "token env and file", yaml: edit((c) => c.service.token = { env: "SCOREBRIDGE_TOKEN", file: "/etc/scorebridge/token" }), path: "service.token", message: "only one of env:, file: or credential: (found env and file)" },
  { name: "token neither", yaml: edit((c) => c.service.token = {}), path: "service.token", message: "give one of env:, file: or credential:" },
  { name: "token inline", yaml: edit((c) => c.service.token = secret), path: "service.token", message: "never the secret itself" },
  { name: "token pasted as env name", yaml: edit((c) => c.service.token = { env: secret }), path: "service.token.env", message: "NAME of an environment variable" },
  { name: "token under an unknown key", yaml: edit((c) => c.service.token = { value: secret }), path: "service.token.value", message: `unknown key "value"` },
  { name: "token file missing", yaml: edit((c) => c.service.token = { file: join(dir, "no-such-token") }), path: "service.token", message: "does not exist", secretsOnly: true },
  { name: "token credential outside systemd", yaml: edit((c) => c.service.token = { credential: "token" }), path: "service.token", message: "needs $CREDENTIALS_DIRECTORY", secretsOnly: true },
  { name: "mqtt password env not set", yaml: edit((c) => c.mqtt = { url: "mqtt://127.0.0.1:1883", username: "u", password: { env: "NOT_SET_TOKEN" } }), path: "mqtt.password", message: "environment variable NOT_SET_TOKEN is not set", secretsOnly: true },
  { name: "mqtt source without broker", yaml: edit((c) => { delete c.places[0].scoreboard.serial; c.places[0].scoreboard.mqtt = { topics: ["venue/court-1"] } }), path: "places[0].scoreboard.mqtt", message: "no top-level mqtt: block" },
  { name: "wildcard topic", yaml: edit((c) => { c.mqtt = { url: "mqtt://127.0.0.1:1883" }; delete c.places[0].scoreboard.serial; c.places[0].scoreboard.mqtt = { topics: ["venue/#"] } }), path: "places[0].scoreboard.mqtt.topics[0]", message: "wildcards" },
  { name: "mqtt url scheme", yaml: edit((c) => c.mqtt = { url: "http://127.0.0.1:1883" }), path: "mqtt.url", message: "mqtt://host:port" },
  { name: "tls cert without key", yaml: edit((c) => c.mqtt = { url: "mqtts://broker:8883", tls: { cert: "/etc/c.pem" } }), path: "mqtt.tls", message: "cert: and key: together" },
  { name: "bad log level", yaml: edit((c) => c.log = { level: "verbose" }), path: "log.level", message: `got "verbose"` },
  { name: "bad listen address", yaml: edit((c) => c.status = { listen: "8370" }), path: "status.listen", message: "host:port" },
  { name: "protocol option unknown", yaml: edit((c) => c.places[0].scoreboard.options.separator = ";"), path: "places[0].scoreboard.options.separator", message: `unknown key "separator"` },
  { name: "protocol option invalid regex", yaml: edit((c) => c.places[0].scoreboard.options = { pattern: "(?<home>\\d+" }), path: "places[0].scoreboard.options.pattern", message: "not a valid regular expression" },
  { name: "place is not a mapping", yaml: edit((c) => c.places = ["court-1"]), path: "places[0]", message: `expected a mapping (key: value), got "court-1"` },
  { name: "unknown button type", yaml: withButtons((c) => c.buttons[0].type = "zigbee"), path: "buttons[0].type", message: `got "zigbee"` },
  { name: "button name with spaces", yaml: withButtons((c) => c.buttons[0].name = "court 1 remote"), path: "buttons[0].name", message: "letters, digits" },
  { name: "duplicate button names", yaml: withButtons((c) => c.buttons.push(structuredClone(c.buttons[0]))), path: "buttons[1].name", message: `duplicate button name "remote" (also buttons[0])` },
  { name: "mqtt button without its topics", yaml: withButtons((c) => delete c.buttons[0].mqtt), path: "buttons[0]", message: "type zigbee2mqtt needs mqtt: { topics: [...] }" },
  { name: "button with a second link", yaml: withButtons((c) => c.buttons[0].serial = { path: "/dev/ttyACM0" }), path: "buttons[0].serial", message: "not used by type zigbee2mqtt" },
  { name: "mqtt button without broker", yaml: withButtons((c) => delete c.mqtt), path: "buttons[0].mqtt", message: "no top-level mqtt: block" },
  { name: "malformed button topic wildcard", yaml: withButtons((c) => c.buttons[0].mqtt.topics = ["shellies/button#"]), path: "buttons[0].mqtt.topics[0]", message: "a wildcard fills a whole level" },
  { name: "relative input device", yaml: withButtons((c) => c.buttons = [{ name: "remote", type: "input-event", device: "input/event3" }]), path: "buttons[0].device", message: "absolute device path" },
  { name: "gpiomon without lines", yaml: withButtons((c) => c.buttons = [{ name: "remote", type: "gpiomon", gpio: { chip: "gpiochip0", lines: [] } }]), path: "buttons[0].gpio.lines", message: "at least one line offset" },
  { name: "gpio chip like an option", yaml: withButtons((c) => c.buttons = [{ name: "remote", type: "gpiomon", gpio: { chip: "--help", lines: [17] } }]), path: "buttons[0].gpio.chip", message: "chip name (gpiochip0)" },
  { name: "serial port shared", yaml: withButtons((c) => c.buttons = [{ name: "remote", type: "serial-buttons", serial: { path: "/dev/ttyUSB0" } }]), path: "buttons[0].serial.path", message: "is also read by places[0].scoreboard.serial.path" },
  { name: "button source option unknown", yaml: withButtons((c) => c.buttons[0].options = { debounce: 30 }), path: "buttons[0].options.debounce", message: `unknown key "debounce"` },
  { name: "serial-buttons pattern without gesture", yaml: withButtons((c) => c.buttons = [{ name: "remote", type: "serial-buttons", serial: { path: "/dev/ttyACM0" }, options: { pattern: "^BTN (?<button>\\w+)$" } }]), path: "buttons[0].options.pattern", message: "needs a named group `gesture`" },
  { name: "gesture timing out of range", yaml: withButtons((c) => c.buttons = [{ name: "remote", type: "input-event", device: "/dev/input/event3", options: { gestures: { holdMs: -5 } } }]), path: "buttons[0].options.gestures.holdMs", message: "got -5" },
  { name: "action names an unknown source", yaml: withButtons((c) => c.places[0].actions[0].source = "remtoe"), path: "places[0].actions[0].source", message: `no button source named "remtoe" (buttons: remote)` },
  { name: "action without any buttons list", yaml: withButtons((c) => delete c.buttons), path: "places[0].actions[0].source", message: "no top-level buttons: list" },
  { name: "unknown gesture", yaml: withButtons((c) => c.places[0].actions[0].gesture = "long"), path: "places[0].actions[0].gesture", message: `expected one of "single", "double", "triple", "hold", "release", got "long"` },
  { name: "unknown do", yaml: withButtons((c) => c.places[0].actions[1].do = "undoo"), path: "places[0].actions[1].do", message: `expected one of "highlight", "undo", got "undoo" — did you mean "undo"?` },
  { name: "action without do", yaml: withButtons((c) => delete c.places[0].actions[1].do), path: "places[0].actions[1].do", message: "required, but missing" },
  { name: "team with undo", yaml: withButtons((c) => c.places[0].actions[1].team = "home"), path: "places[0].actions[1].team", message: "not allowed with do: undo" },
  { name: "unknown team", yaml: withButtons((c) => c.places[0].actions[0].team = "guests"), path: "places[0].actions[0].team", message: `expected one of "home", "away", "none", got "guests"` },
  { name: "two actions for one press", yaml: withButtons((c) => c.places[0].actions.push({ source: "remote", gesture: "single", do: "highlight" })), path: "places[0].actions[2]", message: "is also handled by actions[0]" },
  { name: "beforeSeconds without afterSeconds", yaml: withButtons((c) => c.places[0].clicks = { beforeSeconds: 20 }), path: "places[0].clicks.beforeSeconds", message: "give beforeSeconds and afterSeconds together" },
  { name: "window beyond the kept minute", yaml: withButtons((c) => c.places[0].clicks = { beforeSeconds: 90, afterSeconds: 5 }), path: "places[0].clicks.beforeSeconds", message: "only the last minute of footage" },
  { name: "empty click window", yaml: withButtons((c) => c.places[0].clicks = { beforeSeconds: 0, afterSeconds: 0 }), path: "places[0].clicks", message: "the clip would be empty" },
  { name: "undo window too long", yaml: withButtons((c) => c.places[0].clicks = { undoWithinSeconds: 7200 }), path: "places[0].clicks.undoWithinSeconds", message: "from 1 to 3600, got 7200" },
  { name: "feedback topic without broker", yaml: edit((c) => c.places[0].clicks = { feedbackTopic: "scorebridge/court-1/feedback" }), path: "places[0].clicks.feedbackTopic", message: "no top-level mqtt: block" },
  { name: "feedback topic with wildcard", yaml: withButtons((c) => c.places[0].clicks = { feedbackTopic: "scorebridge/+/feedback" }), path: "places[0].clicks.feedbackTopic", message: "cannot publish to a wildcard" },
  { name: "overlay image and template", yaml: withButtons((c) => Object.assign(homeOverlay(c), { templateSource: "https://cdn.example.com/bug.html", values: {} })), path: "places[0].teams.home.overlay.templateSource", message: "not both" },
  { name: "overlay without a picture", yaml: withButtons((c) => delete homeOverlay(c).imageSource), path: "places[0].teams.home.overlay", message: "give imageSource: (a PNG or JPEG) or templateSource:" },
  { name: "overlay template without values", yaml: withButtons((c) => c.places[0].teams.home.overlay = { templateSource: "https://cdn.example.com/bug.html", heightPercentOfHeight: 10 }), path: "places[0].teams.home.overlay.values", message: "required with templateSource" },
  { name: "overlay image with values", yaml: withButtons((c) => homeOverlay(c).values = { team: "{{homeTeam}}" }), path: "places[0].teams.home.overlay.values", message: "only for templateSource" },
  { name: "overlay plain http", yaml: withButtons((c) => homeOverlay(c).imageSource = "http://cdn.example.com/home.png"), path: "places[0].teams.home.overlay.imageSource", message: "must use https://" },
  { name: "overlay both sizes", yaml: withButtons((c) => homeOverlay(c).widthPercentOfWidth = 20), path: "places[0].teams.home.overlay.widthPercentOfWidth", message: "the service would use heightPercentOfHeight" },
  { name: "overlay no size", yaml: withButtons((c) => delete homeOverlay(c).heightPercentOfHeight), path: "places[0].teams.home.overlay", message: "give heightPercentOfHeight: or widthPercentOfWidth:" },
  { name: "overlay both margins", yaml: withButtons((c) => Object.assign(homeOverlay(c), { marginPercentOfHeight: 2, marginPercentOfWidth: 2 })), path: "places[0].teams.home.overlay.marginPercentOfWidth", message: "at most one of marginPercentOfHeight and marginPercentOfWidth" },
  { name: "overlay size over 100%", yaml: withButtons((c) => homeOverlay(c).heightPercentOfHeight = 120), path: "places[0].teams.home.overlay.heightPercentOfHeight", message: "at most 100, got 120" },
  { name: "overlay zero size", yaml: withButtons((c) => homeOverlay(c).heightPercentOfHeight = 0), path: "places[0].teams.home.overlay.heightPercentOfHeight", message: "above 0" },
  { name: "overlay position word", yaml: withButtons((c) => homeOverlay(c).position = { horizontal: "middle", vertical: "top" }), path: "places[0].teams.home.overlay.position.horizontal", message: `expected one of "left", "center", "right", got "middle"` },
  { name: "overlay negative start", yaml: withButtons((c) => homeOverlay(c).startTime = -100), path: "places[0].teams.home.overlay.startTime", message: "0 or more, got -100" },
  { name: "overlay fractional duration", yaml: withButtons((c) => homeOverlay(c).duration = 2.5), path: "places[0].teams.home.overlay.duration", message: "integer" },
  { name: "overlay unknown live field", yaml: withButtons((c) => c.places[0].teams.home.overlay = { templateSource: "https://cdn.example.com/bug.html", values: { score: "{{homeScore}}-{{guestScore}}" }, heightPercentOfHeight: 10 }), path: "places[0].teams.home.overlay.values.score", message: "unknown live field {{guestScore}} (known: {{homeTeam}}, {{awayTeam}}, {{homeScore}}, {{awayScore}}, {{period}}, {{team}}, {{teamScore}}, {{homePenalties}}," },
  { name: "overlay unmatched braces", yaml: withButtons((c) => c.places[0].teams.home.overlay = { templateSource: "https://cdn.example.com/bug.html", values: { team: "{{homeTeam}" }, heightPercentOfHeight: 10 }), path: "places[0].teams.home.overlay.values.team", message: "unmatched {{ or }}" },
  { name: "overlay unknown key", yaml: withButtons((c) => homeOverlay(c).opacity = 0.5), path: "places[0].teams.home.overlay.opacity", message: `unknown key "opacity"` },
  { name: "unknown team key", yaml: withButtons((c) => c.places[0].teams.guests = {}), path: "places[0].teams.guests", message: `unknown key "guests" (allowed here: home, away)` },
  { name: "unknown auto-highlight rule", yaml: autoRules("basketball", [{ rule: "three-pointer" }]), path: "places[0].autoHighlights[0].rule", message: `expected one of "score", "lead-change", "tie", "period-end", "game-won", "break", "set-won", "tiebreak-point", "set-point", "match-point", "finish", got "three-pointer"` },
  { name: "misspelt auto-highlight rule", yaml: autoRules("tennis", [{ rule: "game-wn" }]), path: "places[0].autoHighlights[0].rule", message: `did you mean "game-won"?` },
  { name: "auto-highlight rule unfit for the sport", yaml: autoRules("basketball", [{ rule: "score" }, { rule: "game-won" }]), path: "places[0].autoHighlights[1].rule", message: "game-won does not fit basketball: rules for basketball are score, lead-change, tie, period-end" },
  { name: "tennis-only rule in volleyball", yaml: autoRules("volleyball", [{ rule: "break" }]), path: "places[0].autoHighlights[0].rule", message: "break does not fit volleyball: rules for volleyball are score, lead-change, tie, period-end, set-won, set-point, match-point" },
  { name: "match format on a rule without sets", yaml: autoRules("tennis", [{ rule: "game-won", bestOf: 5 }]), path: "places[0].autoHighlights[0].bestOf", message: "only for rules set-won, set-point and match-point (the match format they count with); game-won does not use it" },
  { name: "atLeast on a rule other than score", yaml: autoRules("basketball", [{ rule: "lead-change", atLeast: 3 }]), path: "places[0].autoHighlights[0].atLeast", message: "only for rule: score (the smallest jump that counts); lead-change takes no atLeast" },
  { name: "atLeast above 1 in tennis", yaml: autoRules("tennis", [{ rule: "score", atLeast: 2 }]), path: "places[0].autoHighlights[0].atLeast", message: "a jump of 2 never happens in tennis: its score goes up one point at a time" },
  { name: "atLeast zero", yaml: autoRules("basketball", [{ rule: "score", atLeast: 0 }]), path: "places[0].autoHighlights[0].atLeast", message: "must be a whole number of points, 1 or more, got 0" },
  { name: "even bestOf", yaml: autoRules("tennis", [{ rule: "set-won", bestOf: 4 }]), path: "places[0].autoHighlights[0].bestOf", message: "must be an odd number of sets from 1 to 7 (best of 3, best of 5), got 4" },
  { name: "gamesPerSet in volleyball", yaml: autoRules("volleyball", [{ rule: "set-won", gamesPerSet: 6 }]), path: "places[0].autoHighlights[0].gamesPerSet", message: "is for tennis and padel; volleyball does not count games: its sets are counted in points (pointsPerSet, decidingSetPoints)" },
  { name: "pointsPerSet in padel", yaml: autoRules("padel", [{ rule: "set-point", pointsPerSet: 25 }]), path: "places[0].autoHighlights[0].pointsPerSet", message: "is for volleyball and beach volleyball; in padel its sets are counted in games (gamesPerSet)" },
  { name: "team on period-end", yaml: autoRules("basketball", [{ rule: "period-end", team: "home" }]), path: "places[0].autoHighlights[0].team", message: "a period end is about neither team" },
  { name: "auto-highlights without a sport", yaml: autoRules("tennis", [{ rule: "score" }], (c) => delete c.places[0].sport), path: "places[0].autoHighlights", message: "place court-1 has auto-highlights but no sport: set sport:" },
  { name: "auto-highlights without a scoreboard", yaml: autoRules("tennis", [{ rule: "score" }], (c) => delete c.places[0].scoreboard), path: "places[0].autoHighlights", message: "place court-1 has auto-highlights but no scoreboard: the rules read the score" },
  { name: "auto-highlight window half given", yaml: autoRules("basketball", [{ rule: "score", afterSeconds: 4 }]), path: "places[0].autoHighlights[0].afterSeconds", message: "give beforeSeconds and afterSeconds together, or neither for the rule's default window for the sport" },
  { name: "auto-highlight window empty", yaml: autoRules("basketball", [{ rule: "tie", beforeSeconds: 0, afterSeconds: 0 }]), path: "places[0].autoHighlights[0]", message: "the clip would be empty" },
  { name: "auto-highlight window beyond the kept minute", yaml: autoRules("basketball", [{ rule: "tie", beforeSeconds: 75, afterSeconds: 5 }]), path: "places[0].autoHighlights[0].beforeSeconds", message: "only the last minute of footage" },
  { name: "same rule twice for the same team", yaml: autoRules("tennis", [{ rule: "break", team: "home" }, { rule: "game-won" }, { rule: "break", team: "home", beforeSeconds: 30, afterSeconds: 5 }]), path: "places[0].autoHighlights[2].rule", message: "break for home is listed twice (also [0]): keep one entry per rule and team" },
  { name: "finish outside swimming", yaml: autoRules("basketball", [{ rule: "finish" }]), path: "places[0].autoHighlights[0].rule", message: "finish does not fit basketball: rules for basketball are score, lead-change, tie, period-end" },
  { name: "a set rule in swimming", yaml: autoRules("swimming", [{ rule: "finish" }, { rule: "set-won" }]), path: "places[0].autoHighlights[1].rule", message: "set-won does not fit swimming: rules for swimming are score, lead-change, tie, period-end, finish" },
  { name: "places on a rule other than finish", yaml: autoRules("swimming", [{ rule: "score", places: 3 }]), path: "places[0].autoHighlights[0].places", message: "only for rule: finish (which places make a click); score does not use it — leave it out" },
  { name: "winner on a rule other than finish", yaml: autoRules("basketball", [{ rule: "lead-change", winner: true }]), path: "places[0].autoHighlights[0].winner", message: "only for rule: finish (which places make a click); lead-change does not use it" },
  { name: "team on finish", yaml: autoRules("swimming", [{ rule: "finish", team: "home" }]), path: "places[0].autoHighlights[0].team", message: "a finish is a swimmer's, about neither team, so no highlight would pass this filter — leave team out" },
  { name: "places and winner on one finish rule", yaml: autoRules("swimming", [{ rule: "finish", places: 3, winner: true }]), path: "places[0].autoHighlights[0].winner", message: "give places or winner, not both — winner: true is places: 1" },
  { name: "places beyond the lanes", yaml: autoRules("swimming", [{ rule: "finish", places: 13 }]), path: "places[0].autoHighlights[0].places", message: "must be a whole number from 1 to 12 (a pool has at most 12 lanes), got 13" },
  { name: "finish listed twice", yaml: autoRules("swimming", [{ rule: "finish", winner: true }, { rule: "finish" }]), path: "places[0].autoHighlights[1].rule", message: "finish is listed twice (also [0]): keep one entry per rule and team" },
  { name: "merge window too long", yaml: autoRules("tennis", [{ rule: "break" }], (c) => c.places[0].clicks = { mergeSeconds: 45 }), path: "places[0].clicks.mergeSeconds", message: "must be from 0 to 30 seconds, got 45" },
  { name: "button source named auto", yaml: withButtons((c) => { c.buttons[0].name = "auto"; for (const action of c.places[0].actions) action.source = "auto" }), path: "buttons[0].name", message: `"auto" is reserved: it is the source of auto-highlights (metadata.source)` },
  { name: "top level is a list", yaml: "- service\n- places\n", path: "", message: "expected a mapping (key: value), got a list" },
  { name: "bad YAML syntax", yaml: "service:\n  baseUrl: https://api.example.com\n  token: { env: SCOREBRIDGE_TOKEN\nplaces: []\n", path: "", message: "YAML syntax" },
  { name: "duplicate YAML key", yaml: "service: {}\nservice: {}\nplaces: []\n", path: "", message: "YAML syntax", at: ":2:1" },
  { name: "empty file", yaml: "# nothing but a comment\n", path: "", message: "the file is empty" }
]

const fileFor = (name: string, yaml: string) => {
  const file = join(dir, `${name.replace(/\W+/gu, "-")}.yaml`)
  writeFileSync(file, yaml)
  return file
}

describe("broken configs", () => {
  it("has at least 25 distinct cases", () => {
    assert.isAtLeast(new Set(cases.map((c) => c.name)).size, 25)
  })

  it.effect.each(cases)("$name", (c) =>
    Effect.gen(function*() {
      const file = fileFor(c.name, c.yaml)
      const result = yield* checkConfig(file)
      assert.isFalse(result.ok, "the config must be rejected")
      const report = result.ok ? "" : result.report
      assert.notInclude(report, secret)
      const lines = report.split("\n")
      // Every line names the file; the matching line names the field path and what is wrong.
      for (const line of lines) assert.isTrue(line.startsWith(file), line)
      const prefix = c.path === "" ? "" : `${c.path}: `
      const matching = lines.filter((line) => line.includes(` ${prefix}`) && line.includes(c.message))
      assert.isNotEmpty(matching, `no line with "${prefix}${c.message}" in:\n${report}`)
      for (const line of matching) {
        // Located in the YAML wherever the problem is about something written in it.
        if (c.path !== "") assert.match(line, new RegExp(`^${file.replace(/\W/gu, "\\$&")}:\\d+:\\d+ `), line)
        if (c.at !== undefined) assert.include(line, `${file}${c.at} `)
      }
    }))

  it.effect.each(cases.filter((c) => c.secretsOnly !== true && c.path !== ""))("loadConfig: $name", (c) =>
    Effect.gen(function*() {
      const file = fileFor(`load-${c.name}`, c.yaml)
      const error = yield* Effect.flip(loadConfig(file))
      assert.strictEqual(error._tag, "ConfigError")
      assert.strictEqual(error.file, file)
      const problem = error.problems.find((p) => p.path === c.path && p.message.includes(c.message))
      assert.isDefined(problem, JSON.stringify(error.problems))
      assert.isNumber(problem?.line)
      assert.notInclude(JSON.stringify(error.problems), secret)
    }))

  it.effect("a missing file is named", () =>
    Effect.gen(function*() {
      const file = join(dir, "does-not-exist.yaml")
      const result = yield* checkConfig(file)
      assert.deepStrictEqual(result, { ok: false, report: `${file} file not found` })
    }))

  it.effect("points at the line and column of the bad value", () =>
    Effect.gen(function*() {
      const yaml = [
        "service:",
        "  baseUrl: https://api.example.com",
        "  token: { env: SCOREBRIDGE_TOKEN }",
        "  companyKey: demo-org",
        "places:",
        "  - key: court-1",
        "    scoreboard:",
        "      protocol: lines",
        "      serial:",
        "        path: /dev/ttyUSB0",
        "        baudRate: fast",
        "        parity: mark",
        "      options: { delimiter: \",\", fields: [home, away] }",
        ""
      ].join("\n")
      const file = fileFor("located", yaml)
      const error = yield* Effect.flip(loadConfig(file))
      assert.strictEqual(
        error.message,
        [
          `${file}:11:19 places[0].scoreboard.serial.baudRate: expected one of 1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, got "fast"`,
          `${file}:12:17 places[0].scoreboard.serial.parity: expected one of "none", "even", "odd", got "mark"`
        ].join("\n")
      )
    }))

  const autoYaml = (sport: string, rules: ReadonlyArray<string>, more: ReadonlyArray<string> = []) => [
    "service:",
    "  baseUrl: https://api.example.com",
    "  token: { env: SCOREBRIDGE_TOKEN }",
    "places:",
    "  - key: court-1",
    `    sport: ${sport}`,
    "    scoreboard:",
    "      protocol: lines",
    "      serial: { path: /dev/ttyUSB0 }",
    "      options: { delimiter: \",\", fields: [home, away, period] }",
    "    autoHighlights:",
    ...rules,
    ...more,
    ""
  ].join("\n")

  it.effect("auto-highlight rules that do not fit the sport are located at their line", () =>
    Effect.gen(function*() {
      const file = fileFor("auto-sport", autoYaml("tennis", [
        "      - rule: score",
        "        atLeast: 2",
        "      - rule: lead-change",
        "      - rule: set-won",
        "        pointsPerSet: 25",
        "      - { rule: break, team: away }"
      ]))
      const error = yield* Effect.flip(loadConfig(file))
      assert.strictEqual(error.message, [
        `${file}:13:18 places[0].autoHighlights[0].atLeast: a jump of 2 never happens in tennis: its score goes up one point at a time — leave atLeast out`,
        `${file}:14:15 places[0].autoHighlights[1].rule: lead-change does not fit tennis: rules for tennis are score, period-end, game-won, break, set-won, tiebreak-point, set-point, match-point`,
        `${file}:16:23 places[0].autoHighlights[2].pointsPerSet: is for volleyball and beach volleyball; in tennis its sets are counted in games (gamesPerSet)`
      ].join("\n"))
    }))

  it.effect("auto-highlight entries, their list and the reserved source name are located at their line", () =>
    Effect.gen(function*() {
      const entries = fileFor("auto-entries", autoYaml("basketball", [
        "      - rule: three-pointer",
        "      - rule: score",
        "        afterSeconds: 4"
      ], ["buttons:", "  - { name: auto, type: input-event, device: /dev/input/event3 }"]))
      const error = yield* Effect.flip(loadConfig(entries))
      assert.strictEqual(error.message, [
        `${entries}:12:15 places[0].autoHighlights[0].rule: expected one of "score", "lead-change", "tie", "period-end", "game-won", "break", "set-won", "tiebreak-point", "set-point", "match-point", "finish", got "three-pointer"`,
        `${entries}:14:23 places[0].autoHighlights[1].afterSeconds: give beforeSeconds and afterSeconds together, or neither for the rule's default window for the sport`,
        `${entries}:16:13 buttons[0].name: "auto" is reserved: it is the source of auto-highlights (metadata.source) — name this button source after its device, got "auto"`
      ].join("\n"))
      const twice = fileFor("auto-twice", autoYaml("basketball", ["      - rule: tie", "      - rule: score", "      - rule: tie"]))
      const duplicate = yield* Effect.flip(loadConfig(twice))
      assert.strictEqual(duplicate.message, `${twice}:14:15 places[0].autoHighlights[2].rule: tie for either team is listed twice (also [0]): keep one entry per rule and team`)
    }))

  it.effect("auto-highlights without a sport or a scoreboard name the place, at its rules", () =>
    Effect.gen(function*() {
      const file = fileFor("auto-place", autoYaml("basketball", ["      - rule: tie"]).replace("    sport: basketball\n", "").replace(/ {4}scoreboard:\n(.*\n){3}/u, ""))
      const error = yield* Effect.flip(loadConfig(file))
      assert.strictEqual(error.message, [
        `${file}:7:7 places[0].autoHighlights: place court-1 has auto-highlights but no scoreboard: the rules read the score — add scoreboard: or remove autoHighlights`,
        `${file}:7:7 places[0].autoHighlights: place court-1 has auto-highlights but no sport: set sport: — it decides which rules fit and their default windows`
      ].join("\n"))
    }))

  it.effect("an unknown key is located at the key", () =>
    Effect.gen(function*() {
      const file = fileFor("unknown-key", "service:\n  baseUrl: https://api.example.com\n  token: { env: SCOREBRIDGE_TOKEN }\n  tokn: x\nplaces: [{ key: a, sport: tennis }]\n")
      const error = yield* Effect.flip(loadConfig(file))
      assert.deepStrictEqual(error.problems.map((p) => [p.path, p.line, p.column]), [["service.tokn", 4, 3]])
    }))
})
