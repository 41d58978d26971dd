import { SchemaAST, type SchemaIssue } from "effect"

/** One thing wrong with a config, located by its path inside the document. */
export interface IssueProblem {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
  /** The key itself is wrong (unknown key): point at the key, not its value. */
  readonly atKey?: boolean
}

// Fields holding secret references: their input is never echoed, it may be the secret itself.
const secretKeys = new Set(["token", "password"])
const isSecretPath = (path: ReadonlyArray<PropertyKey>) => path.some((key) => typeof key === "string" && secretKeys.has(key))

// Containers are not echoed: their contents are the subject of their own problems.
const describeScalar = (value: unknown): string | undefined => {
  if (value === null || value === undefined) return "nothing (empty value)"
  if (typeof value === "string") return `"${value.length > 60 ? `${value.slice(0, 57)}...` : value}"`
  if (typeof value === "number" || typeof value === "boolean") return String(value)
  return undefined
}

const got = (issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey>): string => {
  if (!("input" in issue) || isSecretPath(path)) return ""
  const shown = describeScalar(issue.input) ?? (Array.isArray(issue.input) ? "a list" : "a mapping")
  return `, got ${shown}`
}

const gotScalar = (issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey>): string =>
  "input" in issue && describeScalar(issue.input) !== undefined ? got(issue, path) : ""

/** Edit distance, to suggest the intended word for a typo. */
const distance = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]!
}

const suggestion = (input: unknown, candidates: ReadonlyArray<unknown>): string => {
  if (typeof input !== "string") return ""
  const near = candidates.find((candidate) => typeof candidate === "string" && distance(input.toLowerCase(), candidate.toLowerCase()) <= 2)
  return near === undefined ? "" : ` — did you mean "${String(near)}"?`
}

const literalText = (value: SchemaAST.LiteralValue) => (typeof value === "string" ? `"${value}"` : String(value))

const expected = (ast: SchemaAST.AST): string => {
  switch (ast._tag) {
    case "String":
      return "text"
    case "Number":
      return "a number"
    case "Boolean":
      return "true or false"
    case "Literal":
      return literalText(ast.literal)
    case "Arrays":
      return "a list"
    case "Objects":
      return "a mapping (key: value)"
    case "Union":
      return ast.types.every(SchemaAST.isLiteral)
        ? `one of ${ast.types.map((member) => literalText(member.literal)).join(", ")}`
        : ast.types.map(expected).join(" or ")
    default:
      return ast._tag
  }
}

const keyNames = (ast: SchemaAST.AST): ReadonlyArray<string> =>
  SchemaAST.isObjects(ast) ? ast.propertySignatures.map((property) => String(property.name)) : []

const unknownKeyMessage = (ast: SchemaAST.AST, key: PropertyKey): string => {
  const allowed = keyNames(ast)
  const near = allowed.find((name) => name.toLowerCase() === String(key).toLowerCase().replace(/[-_ ]/gu, ""))
  if (near !== undefined) return `unknown key "${String(key)}" — did you mean "${near}"?`
  return allowed.length === 0 ? `unknown key "${String(key)}"` : `unknown key "${String(key)}" (allowed here: ${allowed.join(", ")})`
}

/** The key whose literal value tells a union's mappings apart (`do: highlight | undo`), and its values. */
const discriminator = (ast: SchemaAST.Union): { readonly key: PropertyKey; readonly values: ReadonlyArray<SchemaAST.LiteralValue> } | undefined => {
  const literalsOf = (member: SchemaAST.AST) =>
    SchemaAST.isObjects(member)
      ? member.propertySignatures.flatMap((property) => SchemaAST.isLiteral(property.type) ? [[property.name, property.type.literal] as const] : [])
      : []
  const members = ast.types.map(literalsOf)
  const key = members[0]?.find(([name]) => members.every((literals) => literals.some(([other]) => other === name)))?.[0]
  return key === undefined ? undefined : { key, values: members.flatMap((literals) => literals.filter(([name]) => name === key).map(([, value]) => value)) }
}

// A mapping that matches no member by its discriminating key: say so at that key, not "expected a mapping".
const noMemberProblem = (issue: SchemaIssue.AnyOf, path: ReadonlyArray<PropertyKey>): IssueProblem | undefined => {
  const input = issue.input
  const tag = discriminator(issue.ast)
  if (tag === undefined || typeof input !== "object" || input === null || Array.isArray(input)) return undefined
  const at = [...path, tag.key]
  const value = (input as Record<PropertyKey, unknown>)[tag.key]
  const allowed = `one of ${tag.values.map(literalText).join(", ")}`
  if (value === undefined) return { path: at, message: `required, but missing (${allowed})` }
  return { path: at, message: `expected ${allowed}, got ${describeScalar(value) ?? "a mapping"}${suggestion(value, tag.values)}` }
}

// The node's own annotations: `SchemaAST.resolve` would answer with its last check's.
const customMessage = (ast: SchemaAST.AST): string | undefined => {
  const message = ast.annotations?.["message"]
  return typeof message === "string" ? message : undefined
}

/**
 * Flattens a Schema issue tree into one plain-words problem per leaf,
 * each with its full path. Messages name what was expected and what was
 * found, except under secret references.
 */
export const issueProblems = (
  issue: SchemaIssue.Issue,
  path: ReadonlyArray<PropertyKey> = []
): Array<IssueProblem> => {
  switch (issue._tag) {
    case "Pointer":
      return issueProblems(issue.issue, [...path, ...issue.path])
    case "Composite":
      return issue.issues.flatMap((child) => issueProblems(child, path))
    case "Encoding":
      return issueProblems(issue.issue, path)
    case "AnyOf": {
      const noMember = issue.issues.length === 0 ? noMemberProblem(issue, path) : undefined
      if (noMember !== undefined) return [noMember]
      return issue.issues.length > 0 && !issue.ast.types.every(SchemaAST.isLiteral)
        ? issue.issues.flatMap((child) => issueProblems(child, path))
        : [{
          path,
          message: customMessage(issue.ast) ??
            `expected ${expected(issue.ast)}${got(issue, path)}${
              isSecretPath(path) ? "" : suggestion(issue.input, issue.ast.types.map((member) => SchemaAST.isLiteral(member) ? member.literal : undefined))
            }`
        }]
    }
    case "Filter": {
      const inner = issue.issue
      if (inner._tag !== "InvalidValue") return issueProblems(inner, path)
      const message = inner.annotations?.message ?? issue.filter.annotations?.message
      const fallback = `expected ${issue.filter.annotations?.expected ?? "a valid value"}`
      return [{ path, message: `${message ?? fallback}${gotScalar(inner, path)}` }]
    }
    case "MissingKey":
      return [{ path, message: issue.annotations?.messageMissingKey ?? "required, but missing" }]
    case "UnexpectedKey":
      return [{ path, atKey: true, message: unknownKeyMessage(issue.ast, path[path.length - 1] ?? "") }]
    case "InvalidType":
      return [{ path, message: customMessage(issue.ast) ?? `expected ${expected(issue.ast)}${got(issue, path)}` }]
    case "InvalidValue":
      return [{ path, message: `${issue.annotations?.message ?? "invalid value"}${gotScalar(issue, path)}` }]
    case "Forbidden":
      return [{ path, message: issue.annotations?.message ?? "not allowed here" }]
    case "OneOf":
      return [{ path, message: "matches more than one of the allowed forms; make it unambiguous" }]
  }
}

/** `places[1].scoreboard.serial.baudRate` */
export const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>((text, key) => {
    if (typeof key === "number") return `${text}[${key}]`
    const name = String(key)
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/u.test(name)) return `${text}[${JSON.stringify(name)}]`
    return text === "" ? name : `${text}.${name}`
  }, "")
