import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { protocolNames } from "../../adapters/registry.ts"
import { captureLine, parseCapture } from "../../src/replay/capture-format.ts"
import { evenlyTimed, sidecarTimed } from "../../src/replay/chunk-timing.ts"
import { replayDecoder, type DecoderRequest } from "../../src/replay/replay-decoder.ts"
import { cleanCapturePath, fixture } from "./support.ts"

const clean = fixture(cleanCapturePath)
const failure = <A>(result: Result.Result<A, string>): string => {
  if (Result.isSuccess(result)) throw new Error("expected a failure")
  return result.failure
}
const success = <A>(result: Result.Result<A, string>): A => {
  if (Result.isFailure(result)) throw new Error(`expected a success: ${result.failure}`)
  return result.success
}

describe("capture format (.ndjson)", () => {
  it("reads back exactly the chunks and times it wrote, every byte value included", () => {
    const chunks = [
      { receivedAt: 1_718_000_000_123, bytes: Uint8Array.from({ length: 256 }, (_, i) => i) },
      { receivedAt: 1_718_000_000_150, bytes: new Uint8Array(0) },
      { receivedAt: 1_718_000_000_151, bytes: clean.subarray(0, 100) }
    ]
    const text = chunks.map(captureLine).join("")
    expect(text.split("\n")).toHaveLength(chunks.length + 1)
    expect(success(parseCapture(text)).map((c) => ({ receivedAt: c.receivedAt, bytes: [...c.bytes] })))
      .toEqual(chunks.map((c) => ({ receivedAt: c.receivedAt, bytes: [...c.bytes] })))
  })

  it("names the first bad line", () => {
    const good = captureLine({ receivedAt: 5, bytes: Uint8Array.of(1, 2) })
    expect(failure(parseCapture(`${good}\n{"t":-1,"b":"AA=="}\n`))).toMatch(/^line 3 .*greater than or equal to 0/)
    expect(failure(parseCapture(`${good}{"t":1,"b":"not base64!"}`))).toMatch(/^line 2 .*Base64/)
    expect(failure(parseCapture("hello"))).toMatch(/^line 1 .*JSON/)
    expect(failure(parseCapture('{"b":"AA=="}'))).toMatch(/^line 1 /)
    expect(failure(parseCapture("hello"))).not.toContain("\n")
  })
})

describe("timing a raw capture", () => {
  it("cuts evenly and stamps chunk i at start + i × chunkMs", () => {
    const chunks = evenlyTimed(clean, { start: 1000, chunkMs: 7, chunkBytes: 1000 })
    expect(chunks.map((c) => c.receivedAt)).toEqual([1000, 1007, 1014, 1021, 1028, 1035, 1042, 1049, 1056, 1063])
    expect(chunks.map((c) => c.bytes.length)).toEqual([1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 214])
    expect(Buffer.concat(chunks.map((c) => c.bytes)).equals(Buffer.from(clean))).toBe(true)
  })

  it("takes real times from a sidecar whose counts cover the file exactly", () => {
    const bytes = clean.subarray(0, 30)
    const chunks = success(sidecarTimed(bytes, "# receivedAt bytes\n100 10\n\n250 20\n"))
    expect(chunks.map((c) => [c.receivedAt, c.bytes.length])).toEqual([[100, 10], [250, 20]])
    expect([...chunks[1]!.bytes]).toEqual([...bytes.subarray(10)])
    expect(failure(sidecarTimed(bytes, "100 10\n"))).toMatch(/add up to 10, the capture has 30/)
    expect(failure(sidecarTimed(bytes, "100 40\n"))).toMatch(/line 1 goes past the end/)
    expect(failure(sidecarTimed(bytes, "100 10\n1.5 20\n"))).toMatch(/line 2 is not/)
  })
})

describe("choosing the decoder", () => {
  const request = (overrides: Partial<DecoderRequest>): DecoderRequest =>
    ({ protocol: "daktronics-rtd", sport: "football", options: undefined, maxFrameBytes: undefined, ...overrides })

  it("lists every known protocol when the protocol is missing or unknown", () => {
    for (const protocol of [undefined, "daktronix"]) {
      const message = failure(replayDecoder(request({ protocol })))
      for (const name of protocolNames) expect(message).toContain(name)
    }
  })

  it("requires a sport the protocol knows, and says which it knows", () => {
    expect(failure(replayDecoder(request({ sport: undefined })))).toMatch(/--sport is required.*basketball/)
    expect(failure(replayDecoder(request({ sport: "curling" })))).toMatch(/no field layout for sport "curling".*football/)
  })

  it("decodes --options with the protocol's own schema, strictly", () => {
    expect(failure(replayDecoder(request({ options: "{volleyballPoints:" })))).toMatch(/--options is not valid JSON/)
    expect(failure(replayDecoder(request({ options: '{"volleyballPoint":"game"}' })))).toMatch(/options\.volleyballPoint: unknown key/)
    expect(failure(replayDecoder(request({ options: '{"volleyballPoints":"set"}' })))).toMatch(/options\.volleyballPoints: expected one of/)
    expect(failure(replayDecoder(request({ protocol: "lines" })))).toMatch(/--options rejected by lines/)
    expect(success(replayDecoder(request({ options: '{"volleyballPoints":"game"}' }))).sport).toBe("football")
  })

  it("builds the protocol's decoder with the frame limit asked for", () => {
    const limited = success(replayDecoder(request({ maxFrameBytes: 64 }))).decoder
    const unlimited = success(replayDecoder(request({}))).decoder
    // The closing full dump is 370 bytes: over a 64-byte limit, within the default.
    limited.push(clean, 0)
    unlimited.push(clean, 0)
    expect(limited.stats.overlong).toBeGreaterThan(0)
    expect(unlimited.stats.overlong).toBe(0)
  })
})
