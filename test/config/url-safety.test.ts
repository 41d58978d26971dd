import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { protocols } from "../../adapters/registry.ts"
import { type ConfigError, parseConfig } from "../../src/config/load.ts"
import { withoutUrlPasswords } from "../../src/config/urls.ts"
import { brokerCheck } from "../../src/commissioning/broker-check.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { redactedText, redactedUrl } from "../../src/setup/config/secret-redaction.ts"

const config = (baseUrl: string, mqttUrl: string) => `
service:
  baseUrl: ${JSON.stringify(baseUrl)}
  token: { env: SCOREBRIDGE_TOKEN }
mqtt:
  url: ${JSON.stringify(mqttUrl)}
places:
  - key: gym
    sport: basketball
    scoreboard:
      protocol: daktronics-rtd
      serial: { path: /dev/ttyUSB0 }
`

const config_ = (mqttUrl: string) => config("https://api.example.com", mqttUrl)

const problemsOf = (text: string) =>
  parseConfig(text, "urls.yaml", protocols).pipe(
    Effect.as([] as ReadonlyArray<string>),
    Effect.catchTag("ConfigError", (error: ConfigError) => Effect.succeed(error.problems.map((problem) => `${problem.path}: ${problem.message}`)))
  )

describe("URLs in the config", () => {
  it.effect("a tab, space or control character anywhere in a URL is refused, naming the field", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* problemsOf(config("https://api.example.com", "mqtt://u:pw@broker:1883")), [])
      for (const mqtt of ["mqtt://u:pw\t@broker:1883", "mqtt://u:p w@broker", "mqtt://broker:1883\u001b[2J", "mqtt://u:pw\u0085@broker"]) {
        const problems = yield* problemsOf(config("https://api.example.com", mqtt))
        assert.isTrue(problems.some((line) => line.startsWith("mqtt.url:") && /control character/u.test(line)), `${JSON.stringify(mqtt)}: ${problems.join("; ")}`)
      }
      const problems = yield* problemsOf(config("https://api.example.com/\tv1", "mqtt://broker"))
      assert.isTrue(problems.some((line) => line.startsWith("service.baseUrl:") && /control character/u.test(line)), problems.join("; "))
    }))
})

describe("URL redaction", () => {
  it("takes the password out however the URL is written", () => {
    assert.strictEqual(redactedUrl("mqtt://u:secret@host:1883"), "mqtt://u:***@host:1883")
    assert.strictEqual(redactedUrl("mqtt://u:pw\tsecret@host"), "mqtt://u:***@host")
    assert.strictEqual(redactedUrl("mqtt://u:p w@x@host/topic"), "mqtt://u:***@host/topic")
    assert.strictEqual(redactedUrl("mqtts://u:pa:ss@host"), "mqtts://u:***@host")
    assert.strictEqual(redactedUrl("mqtt://host:1883"), "mqtt://host:1883")
    // A user name that is not plain URL text may be a pasted secret: it goes too.
    assert.strictEqual(redactedUrl("mqtt://to\tken@host"), "mqtt://***@host")
  })

  it("takes passwords out of free text: several URLs, a diff's lines, an error message", () => {
    const text = [
      "-  url: \"mqtt://u:old\tsecret@broker-a:1883\"",
      "+  url: mqtt://u:new secret@broker-b",
      "connect to https://admin:hunter 2@10.0.0.5/api failed; see http://example.com/x@y"
    ].join("\n")
    const redacted = redactedText(text, [])
    for (const secret of ["old", "new secret", "hunter"]) assert.notInclude(redacted, secret)
    assert.include(redacted, "broker-b")
    assert.include(redacted, "http://example.com/x@y")
    assert.strictEqual(withoutUrlPasswords("no url here @ all"), "no url here @ all")
  })

  it.effect("doctor's broker line names the broker without the password its URL carries", () =>
    Effect.gen(function*() {
      const port = yield* Effect.promise(() => freePort())
      const { config } = yield* parseConfig(config_(`mqtt://u:hunter2@127.0.0.1:${port}`), "urls.yaml", protocols)
      const outcome = yield* brokerCheck(config)
      assert.strictEqual(outcome.status, "fail")
      assert.include(outcome.line, `MQTT broker mqtt://127.0.0.1:${port}:`)
      assert.notInclude(`${outcome.line} ${outcome.advice ?? ""}`, "hunter2")
    }))
})
