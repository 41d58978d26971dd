import { Effect, Result, Schema } from "effect"
import { formatPath, issueProblems } from "../../config/problems.ts"
import type { SetupEnvironment } from "../setup-environment.ts"
import { problem, type SetupReply } from "../setup-route.ts"
import type { CapturePlan } from "./button-capture.ts"
import { decoderOf } from "./button-press.ts"
import { chooseBroker } from "./capture-broker.ts"
import { type DeviceDirectories, deviceDirectories, gpioChipPath, pageDevice } from "../steps/page-devices.ts"
import { CaptureRequest, gpioCommandRefused, namesProgram } from "./capture-request.ts"
import { readConfiguredLinks } from "./configured-links.ts"
import { type StreamSource, streamSources } from "./stream-sources.ts"

const decodeRequest = Schema.decodeUnknownResult(CaptureRequest)

const requestProblem = (body: unknown): SetupReply | CaptureRequest => {
  if (namesProgram(body)) return problem(400, gpioCommandRefused)
  const decoded = decodeRequest(body, { errors: "all", onExcessProperty: "error" })
  if (Result.isSuccess(decoded)) return decoded.success
  const problems = issueProblems(decoded.failure.issue).map((p) => `${formatPath(p.path)}: ${p.message}`)
  return problem(400, `the request does not say what to listen on: ${problems.join("; ")}`)
}

/**
 * The source's decoder and the character device it opens; or the config's words for what is
 * wrong with its link (a relative path, a baud rate), or why the device named is not one to open.
 */
const withDecoder = (directories: DeviceDirectories, source: StreamSource) =>
  Effect.gen(function*() {
    const decoder = decoderOf(source.entry)
    if (Result.isFailure(decoder)) return Result.fail(problem(400, `${source.link}: ${decoder.failure.join("; ")}`))
    const path = source.named.kind === "gpio" ? gpioChipPath(directories, source.named.path) : source.named.path
    const device = yield* Effect.result(pageDevice(directories, source.named.kind, path))
    if (Result.isFailure(device)) return Result.fail(problem(400, `${source.link}: ${device.failure}`))
    return Result.succeed({ source, decoder: decoder.success, device: device.success.device })
  })

/**
 * What a capture will listen on, each source checked first: the broker the config names (or the
 * page's), a serial port no part of the config reads (a second reader would steal its bytes), links
 * the config would take.
 */
export const planCapture = Effect.fnUntraced(function*(environment: SetupEnvironment, body: unknown, directories = deviceDirectories()) {
  const request = requestProblem(body)
  if ("status" in request) return request
  const { sources } = request
  if (sources.mqtt === undefined && sources.serial === undefined && sources.device === undefined && sources.gpio === undefined) {
    return problem(400, "name at least one source to listen on: mqtt, serial, device or gpio")
  }
  const links = yield* readConfiguredLinks(environment.configPath)
  const serialUser = links.serialPorts.find((port) => port.path === sources.serial?.path)
  if (serialUser !== undefined) {
    return problem(409, `${serialUser.path} is read by the daemon for ${serialUser.by}: a second reader would take its bytes. ` +
      "Its presses show on the status page; pick another port, or remove it from the config first.")
  }
  const streams = []
  for (const source of streamSources(sources)) {
    const checked = yield* withDecoder(directories, source)
    if (Result.isFailure(checked)) return checked.failure
    streams.push(checked.success)
  }
  const broker = sources.mqtt === undefined ? undefined : yield* chooseBroker(environment, links, sources.mqtt.url).pipe(Effect.result)
  if (broker !== undefined && Result.isFailure(broker)) return problem(400, `mqtt: ${broker.failure}`)
  return { broker: broker?.success, streams, configured: links.buttons } satisfies CapturePlan
})
