import type { Nodes, Root } from "mdast"
import { fromMarkdown } from "mdast-util-from-markdown"
import { gfmFromMarkdown } from "mdast-util-gfm"
import { gfm } from "micromark-extension-gfm"

/** Parses Markdown as GitHub does (GFM: tables, autolinks, footnotes), with positions. */
export const parseMarkdown = (text: string): Root =>
  fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] })

/** Every node of the tree, depth first in document order. */
export function* descendants(node: Nodes): Generator<Nodes> {
  yield node
  if ("children" in node) for (const child of node.children) yield* descendants(child)
}

export const lineOf = (node: Nodes): number => node.position?.start.line ?? 0
