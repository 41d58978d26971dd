import { readFileSync } from "node:fs"
import { Effect, Redacted } from "effect"
import { connect, type IClientOptions } from "mqtt"
import type { Config } from "../config/schema.ts"
import { resolveSecret } from "../config/secrets.ts"
import { type CheckOutcome, fail, ok, skip } from "./check-outcome.ts"
import { describeBroker } from "../transport/mqtt-client.ts"

type Mqtt = NonNullable<Config["mqtt"]>

const connectTimeoutMs = 5_000

const tlsOptions = (tls: Mqtt["tls"]): IClientOptions => tls === undefined ? {} : {
  ...(tls.ca === undefined ? {} : { ca: readFileSync(tls.ca, "utf8") }),
  ...(tls.cert === undefined ? {} : { cert: readFileSync(tls.cert, "utf8") }),
  ...(tls.key === undefined ? {} : { key: readFileSync(tls.key, "utf8") }),
  rejectUnauthorized: tls.rejectUnauthorized
}

const adviceFor = (reason: string, url: string): string => {
  if (/not authori[sz]ed|bad user ?name or password/iu.test(reason)) return "the broker refused the credentials: check mqtt.username and mqtt.password"
  if (/certificate|self[- ]signed|tls|ssl/iu.test(reason)) return "the TLS handshake failed: check mqtt.tls.ca (the broker's CA) and the client certificate files"
  return `is the broker running and reachable from here? check mqtt.url (${url}), the broker's listener and the firewall (on the broker's machine: systemctl status mosquitto)`
}

/** Resolves with why the broker could not be used, or undefined once it accepted the connection. */
const tryConnect = (mqtt: Mqtt, password: string | undefined) =>
  Effect.callback<string | undefined>((resume) => {
    let client: ReturnType<typeof connect>
    try {
      client = connect(mqtt.url, {
        // Never the daemon's id: the broker would hand doctor the daemon's persistent session and drop the daemon.
        clientId: `${mqtt.clientId}-doctor-${process.pid}`.slice(0, 64),
        clean: true,
        reconnectPeriod: 0,
        connectTimeout: connectTimeoutMs,
        ...(mqtt.username === undefined ? {} : { username: mqtt.username }),
        ...(password === undefined ? {} : { password }),
        ...tlsOptions(mqtt.tls)
      })
    } catch (cause) {
      resume(Effect.succeed(cause instanceof Error ? cause.message : String(cause)))
      return
    }
    // The client's own listeners stay: its "close" handler is what clears the connect timer.
    let done = false
    const finish = (reason: string | undefined) => {
      if (done) return
      done = true
      client.end(true)
      resume(Effect.succeed(reason))
    }
    client.on("connect", () => finish(undefined))
    client.on("error", (error) => finish(error.message))
    client.on("close", () => finish("connection closed before the broker accepted it"))
    return Effect.sync(() => client.end(true))
  }).pipe(
    Effect.timeoutOption(connectTimeoutMs + 1_000),
    Effect.map((reason) => reason._tag === "None" ? `no answer within ${connectTimeoutMs / 1000} s` : reason.value)
  )

/** Connects once, with a short timeout, as the daemon would (same URL, credentials and TLS files). */
export const brokerCheck = Effect.fn("brokerCheck")(function*(config: Config) {
  const mqtt = config.mqtt
  if (mqtt === undefined) return skip("MQTT broker: none configured (no mqtt: block)")
  const password = mqtt.password === undefined ? undefined : Redacted.value(yield* resolveSecret(mqtt.password, "mqtt.password"))
  const reason = yield* tryConnect(mqtt, password)
  return reason === undefined
    ? ok(`MQTT broker ${describeBroker(mqtt.url)}: connected`)
    : fail(`MQTT broker ${describeBroker(mqtt.url)}: ${reason}`, adviceFor(reason, describeBroker(mqtt.url)))
}, Effect.catchTag("SecretError", (error): Effect.Effect<CheckOutcome> => Effect.succeed(fail(`MQTT broker: ${error.message}`, "fix mqtt.password"))))
