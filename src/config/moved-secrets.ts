import { isDeepStrictEqual } from "node:util"
import { Redacted } from "effect"
import type { Config } from "./schema.ts"
import { originOf } from "./urls.ts"

interface Generation {
  readonly config: Config
  readonly token: Redacted.Redacted<string>
}

/**
 * A secret is for one destination. The setup page drops the token or the broker login when a
 * save moves its address; a hand edit is the office's own to make, so a reload that moves
 * service.baseUrl with the same token, or mqtt.url with the same login, goes ahead — with a
 * warning in the journal, which names the origins and never the secret.
 */
export const movedSecretWarnings = (before: Generation, after: Generation): ReadonlyArray<string> => {
  const warnings: Array<string> = []
  const [serviceFrom, serviceTo] = [originOf(before.config.service.baseUrl), originOf(after.config.service.baseUrl)]
  if (serviceFrom !== serviceTo && Redacted.value(before.token) === Redacted.value(after.token)) {
    warnings.push(
      `service.baseUrl moved from ${serviceFrom} to ${serviceTo} with the same token: the bridge now sends that token to ${serviceTo}; if that is not your organization's service, set a token for it (scorebridge-set-token) or put the address back`
    )
  }
  const [was, now] = [before.config.mqtt, after.config.mqtt]
  if (was !== undefined && now !== undefined && (was.username !== undefined || was.password !== undefined)) {
    const [brokerFrom, brokerTo] = [originOf(was.url), originOf(now.url)]
    if (brokerFrom !== brokerTo && was.username === now.username && isDeepStrictEqual(was.password, now.password)) {
      warnings.push(
        `mqtt.url moved from ${brokerFrom} to ${brokerTo} with the same username and password: the bridge now logs in to ${brokerTo} with them; if that broker is not yours, change mqtt.username and mqtt.password`
      )
    }
  }
  return warnings
}
