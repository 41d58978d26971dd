import { chmod, mkdir, readFile, rm, stat } from "node:fs/promises"
import { join } from "node:path"
import type { SetupEnvironment } from "../setup-environment.ts"
import { writeAtomically } from "./atomic-file.ts"

/** The credential the unit loads (LoadCredential=token:/etc/scorebridge/credentials/token). */
export const tokenCredentialName = "token"

const tokenFile = (environment: SetupEnvironment): string => join(environment.credentialsDirectory, tokenCredentialName)

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
 * Stores the token as scorebridge-set-token does: the directory root-only (0700), the file
 * 0600 and replaced whole (temp file, rename), never half-written.
 */
export const storeToken = async (environment: SetupEnvironment, token: string): Promise<void> => {
  await mkdir(environment.credentialsDirectory, { recursive: true, mode: 0o700 })
  await chmod(environment.credentialsDirectory, 0o700)
  await writeAtomically(tokenFile(environment), `${token}\n`, { mode: 0o600 })
}

/** The stored token removed (the service address changed without it): nothing can send it until one is entered again. */
export const removeToken = async (environment: SetupEnvironment): Promise<void> => rm(tokenFile(environment), { force: true })

/** Whether a token is stored (the page says so, never what it is). */
export const tokenIsStored = async (environment: SetupEnvironment): Promise<boolean> =>
  stat(tokenFile(environment)).then((info) => info.isFile() && info.size > 0, () => false)

/** The stored token, only to take it out of anything shown (a diff of a file someone pasted it into). */
export const storedTokenValue = async (environment: SetupEnvironment): Promise<string | undefined> =>
  readFile(tokenFile(environment), "utf8").then((text) => text.trim() || undefined, () => undefined)
