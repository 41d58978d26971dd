import { parseDocument } from "yaml"
import { originOf } from "../../config/urls.ts"
import { isPlain, type Plain } from "./map-edits.ts"

/**
 * A secret follows its destination: the token is for one service, the broker login for one
 * broker. A save that points `service.baseUrl` or `mqtt.url` at another origin (scheme, host,
 * port) must carry that secret again, or the secret is dropped — else the next check or capture
 * would hand it to whoever the new address belongs to, with no one having typed it for them.
 */

/** What a save asks of the secrets: the new addresses, and the secrets given again in the same save. */
export interface SecretRequest {
  readonly baseUrl?: string | undefined
  readonly mqttUrl?: string | undefined
  readonly tokenGiven: boolean
  readonly brokerLoginGiven: boolean
}

/** What the save does to each secret; `notes` say it in words, for the page. */
export interface SecretOutcome {
  readonly dropToken: boolean
  /** The service moves off a placeholder with the stored token kept: the token is now for the new origin. */
  readonly rebindToken: boolean
  readonly dropBrokerLogin: boolean
  readonly notes: ReadonlyArray<string>
  /** The service's origin after the save: what a token given with it is entered for. */
  readonly origin: string | undefined
}

const sectionOf = (config: Plain, key: string): Plain | undefined => (isPlain(config[key]) ? config[key] : undefined)

const moved = (was: unknown, now: string | undefined): { readonly from: string; readonly to: string } | undefined => {
  if (typeof was !== "string" || now === undefined) return undefined
  const from = originOf(was)
  const to = originOf(now)
  return from === to ? undefined : { from, to }
}

// Reserved names (RFC 2606, 6761) that no service answers: the skeleton's https://api.example.com. A token entered while
// the config still names one was never sent anywhere, so the first real address is where it goes, not a move.
const placeholderHost = /(^|\.)(example\.(com|net|org)|example|invalid|test)$/u

const isPlaceholder = (origin: string): boolean => {
  try {
    return placeholderHost.test(new URL(origin).hostname)
  } catch {
    return false
  }
}

// A login in the fields, or in the URL itself (mqtt://user:password@host).
const hasBrokerLogin = (mqtt: Plain | undefined): boolean =>
  mqtt?.["username"] !== undefined || mqtt?.["password"] !== undefined || (typeof mqtt?.["url"] === "string" && /^[^/]*\/\/[^/]*@/u.test(mqtt["url"]))

/** The config file's settings as plain data, none for a file that is not YAML (its save is refused anyway). */
export const plainConfig = (text: string): Plain => {
  try {
    const value = parseDocument(text, { uniqueKeys: true }).toJS({ maxAliasCount: 100 }) as unknown
    return isPlain(value) ? value : {}
  } catch {
    return {}
  }
}

/** What happens to the token and the broker login when `request` is saved over `before`. */
export const secretOutcome = (before: Plain, request: SecretRequest): SecretOutcome => {
  const baseUrl = request.baseUrl ?? sectionOf(before, "service")?.["baseUrl"]
  const service = moved(sectionOf(before, "service")?.["baseUrl"], request.baseUrl)
  const mqtt = sectionOf(before, "mqtt")
  const broker = moved(mqtt?.["url"], request.mqttUrl)
  const fromPlaceholder = service !== undefined && isPlaceholder(service.from)
  const dropToken = service !== undefined && !request.tokenGiven && !fromPlaceholder
  const dropBrokerLogin = broker !== undefined && !request.brokerLoginGiven && hasBrokerLogin(mqtt)
  return {
    dropToken,
    rebindToken: fromPlaceholder && !request.tokenGiven,
    dropBrokerLogin,
    origin: typeof baseUrl === "string" ? originOf(baseUrl) : undefined,
    notes: [
      ...(dropToken
        ? [`the token was dropped because the service address changed (${service.from} → ${service.to}): enter it again for the new address`]
        : []),
      ...(dropBrokerLogin
        ? [`the broker's username and password were dropped because the broker address changed (${broker.from} → ${broker.to}): enter them again for the new broker`]
        : [])
    ]
  }
}
