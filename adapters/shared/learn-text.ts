import { formatFieldRange } from "./field-ranges.ts"
import { blockIndent, type ByteRange, type FoundField } from "../layout-learning.ts"

/** Bytes `from`..`to` (exclusive) as text, one character per byte: positions in the text are byte offsets. */
export const latin1 = (bytes: Uint8Array, from: number, to: number): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).toString("latin1")

/** `H 12-14`, `0x35 9-10`, `C 7`: a range as the Fair-Play and Stramatel `fields` options write it. */
export const fieldRangeText = (range: ByteRange): string => formatFieldRange({ type: range.kind, first: range.first, last: range.last })

/** `fields: { home: "H 12-14", … }` for the found fields' blocks: the options and their line under `options:`. */
export const fieldsOption = (found: ReadonlyArray<FoundField>) => ({
  fields: Object.fromEntries(found.map((f) => [f.field, fieldRangeText(f.block)])),
  line: `${blockIndent}  fields: { ${found.map((f) => `${f.field}: "${fieldRangeText(f.block)}"`).join(", ")} }`
})

/** The block's first lines: the protocol and `options:`. */
export const protocolHead = (protocol: string): ReadonlyArray<string> => [`${blockIndent}protocol: ${protocol}`, `${blockIndent}options:`]
