import { withoutUrlPasswords } from "../../config/urls.ts"

/**
 * Secret values out of what the setup server shows or records. The config holds references
 * (`{ credential: token }`), but a hand-edited file may hold a pasted token, and a broker URL
 * may carry a password.
 */
/** `mqtt://user:secret@host` → `mqtt://user:***@host`, however the password is written. */
export const redactedUrl = (url: string): string => withoutUrlPasswords(url)

// `token: abc…` or `password: abc…` with a value on the line: a reference starts with `{` or has none (a block below).
const inlineSecret = /^([+\- ]?[ \t]*(?:-[ \t]+)?(?:token|password)[ \t]*:[ \t]*)(?![{#\s]|$)[^#\n]*?([ \t]+#.*)?$/gmu

/**
 * The text with every known secret value, any inline `token:`/`password:` value and any URL
 * password replaced. `secrets` are the values known (the stored token).
 */
export const redactedText = (text: string, secrets: ReadonlyArray<string>): string => {
  const known = secrets.filter((secret) => secret.length >= 4)
  const withoutKnown = known.reduce((result, secret) => result.split(secret).join("[redacted]"), text)
  return withoutUrlPasswords(
    withoutKnown.replace(inlineSecret, (_line, head: string, comment: string | undefined) => `${head}[redacted]${comment ?? ""}`)
  )
}
