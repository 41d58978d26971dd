import { createHash } from "node:crypto"
import { chmod, mkdir, readFile, rm, stat } from "node:fs/promises"
import { join } from "node:path"
import { originOf } from "../../config/urls.ts"
import type { SetupEnvironment } from "../setup-environment.ts"
import { writeAtomically } from "./atomic-file.ts"

/** The credential the unit loads (LoadCredential=token:/etc/scorebridge/credentials/token). */
export const tokenCredentialName = "token"

const tokenFile = (environment: SetupEnvironment): string => join(environment.credentialsDirectory, tokenCredentialName)

// The service origin a token was entered for, beside it (the unit loads only `token`); keyed by a hash of the token, so a token
// set another way (scorebridge-set-token) is not held to an old page's origin.
const originFile = (environment: SetupEnvironment): string => join(environment.credentialsDirectory, `${tokenCredentialName}.origin`)

const fingerprint = (token: string): string => createHash("sha256").update(token).digest("hex")

const writeBinding = (environment: SetupEnvironment, token: string, origin: string): Promise<void> =>
  writeAtomically(originFile(environment), `${JSON.stringify({ origin, token: fingerprint(token) })}\n`, { mode: 0o600 })

/**
 * The daemon's rule, as scorebridge-set-token applies it: line breaks and surrounding spaces
 * dropped, then one printable ASCII word (it goes into an HTTP header as it is). The problem
 * never quotes the value: it may be the token.
 */
export const cleanToken = (raw: unknown): { readonly token: string } | { readonly problem: string } => {
  if (typeof raw !== "string") return { problem: "give the token as text: { \"token\": \"…\" }" }
  const token = raw.replace(/\r/gu, "").trim()
  if (token === "") return { problem: "no token given: paste the token from the service's organization settings" }
  if (/[^\x21-\x7e]/u.test(token)) return { problem: "the token contains spaces, line breaks or characters other than printable ASCII; give only the token" }
  if (token.length > 4096) return { problem: "the token is longer than 4096 characters; give only the token" }
  return { token }
}

/**
 * Stores the token as scorebridge-set-token does: the directory 0700 and the file 0600, both the
 * setup user's (installed: scorebridge-setup; systemd reads it for the bridge as root), the file
 * replaced whole (temp file, rename), never half-written.
 */
export const storeToken = async (environment: SetupEnvironment, token: string, origin?: string): Promise<void> => {
  await mkdir(environment.credentialsDirectory, { recursive: true, mode: 0o700 })
  await chmod(environment.credentialsDirectory, 0o700)
  await rm(originFile(environment), { force: true })
  await writeAtomically(tokenFile(environment), `${token}\n`, { mode: 0o600 })
  if (origin !== undefined) await writeBinding(environment, token, origin)
}

/** The stored token now for `origin` (the config moved off a placeholder address with it). */
export const rebindToken = async (environment: SetupEnvironment, origin: string): Promise<void> => {
  const token = await storedTokenValue(environment)
  if (token !== undefined) await writeBinding(environment, token, origin)
}

/**
 * The origin the stored token was entered for through this page, when the config now points
 * elsewhere (edited by hand since): the checks then do not send it. Undefined when it matches,
 * or nothing binds the token (stored another way).
 */
export const tokenEnteredElsewhere = async (environment: SetupEnvironment, origin: string): Promise<string | undefined> => {
  const [token, bound] = await Promise.all([storedTokenValue(environment), readFile(originFile(environment), "utf8").then(parsedBinding, () => undefined)])
  if (token === undefined || bound === undefined || bound.token !== fingerprint(token)) return undefined
  return bound.origin === origin ? undefined : bound.origin
}

/**
 * Why the checks and the page's service requests must not send the stored token to the service
 * the config names now (it was entered on this page for another), or undefined.
 */
export const tokenHeldBack = async (
  environment: SetupEnvironment,
  service: { readonly baseUrl: string; readonly token: { readonly credential?: string | undefined } }
): Promise<string | undefined> => {
  if (service.token.credential !== tokenCredentialName) return undefined
  const now = originOf(service.baseUrl)
  const was = await tokenEnteredElsewhere(environment, now)
  return was === undefined ? undefined : `the stored token was entered for ${was}, and the config now names ${now}: it is not sent there`
}

const parsedBinding = (text: string): { readonly origin: string; readonly token: string } | undefined => {
  try {
    const value = JSON.parse(text) as { origin?: unknown; token?: unknown }
    return typeof value.origin === "string" && typeof value.token === "string" ? { origin: value.origin, token: value.token } : undefined
  } catch {
    return undefined
  }
}

/** The stored token removed (the service address changed without it): nothing can send it until one is entered again. */
export const removeToken = async (environment: SetupEnvironment): Promise<void> => {
  await rm(tokenFile(environment), { force: true })
  await rm(originFile(environment), { force: true })
}

/** Whether a token is stored (the page says so, never what it is). */
export const tokenIsStored = async (environment: SetupEnvironment): Promise<boolean> =>
  stat(tokenFile(environment)).then((info) => info.isFile() && info.size > 0, () => false)

/** The stored token, only to take it out of anything shown (a diff of a file someone pasted it into). */
export const storedTokenValue = async (environment: SetupEnvironment): Promise<string | undefined> =>
  readFile(tokenFile(environment), "utf8").then((text) => text.trim() || undefined, () => undefined)
