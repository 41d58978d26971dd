import { execFileSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { join, posix, sep } from "node:path"
import { distance } from "fastest-levenshtein"
import GithubSlugger from "github-slugger"
import type { Root } from "mdast"
import { toString } from "mdast-util-to-string"
import { descendants, lineOf, parseMarkdown } from "./markdown.ts"

/** What the checker needs of the work tree; an interface so unit cases can run on in-memory files. */
export interface Files {
  readonly kind: (path: string) => "file" | "dir" | undefined
  readonly read: (path: string) => string
}

export interface LinkProblem {
  readonly file: string
  readonly line: number
  readonly link: string
  readonly problem: string
}

export const formatProblem = (p: LinkProblem): string => `${p.file}:${p.line}: (${p.link}) ${p.problem}`

export const diskFiles = (root: string): Files => ({
  kind: (path) => {
    const stat = statSync(join(root, path), { throwIfNoEntry: false })
    return stat?.isDirectory() ? "dir" : stat?.isFile() ? "file" : undefined
  },
  read: (path) => readFileSync(join(root, path), "utf8")
})

/**
 * Markdown files of the project: what git tracks plus new files not yet added (so pages being
 * written are checked before their first commit), plus everything under docs/ even if ignored.
 */
export const projectMarkdownFiles = (root: string): ReadonlyArray<string> => {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "*.md"], {
    cwd: root,
    encoding: "utf8"
  }).split("\0")
  const docs = existsSync(join(root, "docs"))
    ? readdirSync(join(root, "docs"), { recursive: true, encoding: "utf8" }).map((f) => posix.join("docs", f.split(sep).join("/")))
    : []
  return [...new Set([...listed, ...docs])]
    // ls-files --cached also lists files deleted in the work tree but not yet in the index.
    .filter((f) => f.endsWith(".md") && !f.split("/").includes("node_modules") && existsSync(join(root, f)))
    .sort()
}

// Raw HTML is a GitHub link too (<a href>, <img src>) and may carry explicit anchors (<a id>, <a name>).
const htmlTag = /<[a-z][a-z0-9-]*(?:\s[^>]*)?>/giu
const htmlAttribute = /\s(href|src|id|name)\s*=\s*(?:"([^"]*)"|'([^']*)')/giu

const htmlAttributes = (html: string, firstLine: number): Array<{ name: string; value: string; line: number }> =>
  [...html.matchAll(htmlTag)].flatMap((tag) =>
    [...tag[0].matchAll(htmlAttribute)].map((attribute) => ({
      name: attribute[1]!.toLowerCase(),
      value: attribute[2] ?? attribute[3] ?? "",
      line: firstLine + (html.slice(0, tag.index).match(/\n/gu)?.length ?? 0)
    }))
  )

/** Anchors GitHub gives a rendered file: heading slugs (duplicates get -1, -2, …) and explicit HTML ids/names. */
export const anchorsOf = (tree: Root): ReadonlyArray<string> => {
  const slugger = new GithubSlugger()
  return [...descendants(tree)].flatMap((node) =>
    node.type === "heading"
      // GitHub slugs the rendered text: inline code counts, HTML tags do not.
      ? [slugger.slug(toString(node, { includeHtml: false }))]
      : node.type === "html"
        ? htmlAttributes(node.value, lineOf(node)).filter((a) => a.name === "id" || a.name === "name").map((a) => a.value)
        : []
  )
}

/**
 * Link targets as the parser sees them, so code spans and blocks are never links. Reference-style
 * links are checked at their definition (one place per target, and unused definitions are caught too).
 */
export const linksOf = (tree: Root): ReadonlyArray<{ url: string; line: number }> =>
  [...descendants(tree)].flatMap((node) =>
    node.type === "link" || node.type === "image" || node.type === "definition"
      ? [{ url: node.url, line: lineOf(node) }]
      : node.type === "html"
        ? htmlAttributes(node.value, lineOf(node)).filter((a) => a.name === "href" || a.name === "src").map((a) => ({ url: a.value, line: a.line }))
        : []
  )

const isMarkdown = (path: string): boolean => /\.(md|markdown)$/iu.test(path)

/** Checks every relative link and image of the given Markdown files; absolute URLs are left alone. */
export const checkLinks = (markdownFiles: ReadonlyArray<string>, files: Files): ReadonlyArray<LinkProblem> => {
  const trees = new Map<string, Root>()
  const treeOf = (path: string): Root => {
    const cached = trees.get(path)
    if (cached !== undefined) return cached
    const tree = parseMarkdown(files.read(path))
    trees.set(path, tree)
    return tree
  }

  const problemOf = (file: string, url: string): string | undefined => {
    // Any scheme (http:, https:, mailto:, tel:, data:) or protocol-relative: not a file of the repo.
    if (/^[a-z][a-z0-9+.-]*:/iu.test(url) || url.startsWith("//")) return undefined
    const hashAt = url.indexOf("#")
    const rawPath = (hashAt < 0 ? url : url.slice(0, hashAt)).replace(/\?.*$/su, "")
    let path: string
    let fragment: string | undefined
    try {
      path = decodeURIComponent(rawPath)
      fragment = hashAt < 0 ? undefined : decodeURIComponent(url.slice(hashAt + 1))
    } catch {
      return "malformed percent-encoding"
    }
    // GitHub resolves "/x" from the repository root and "x" from the linking file's folder.
    const target = (path === ""
      ? file
      : path.startsWith("/") ? posix.normalize(path.slice(1)) : posix.join(posix.dirname(file), path)
    ).replace(/(.)\/+$/u, "$1") || "."
    if (target === ".." || target.startsWith("../")) return `points outside the repository (${target})`
    const kind = files.kind(target)
    if (kind === undefined) return `missing file or folder ${target}`
    if (fragment === undefined || fragment === "") return undefined
    // A folder shows its README.md, whose anchors the fragment refers to.
    const page = kind === "dir" ? posix.join(target, "README.md") : target
    if (kind === "dir" && files.kind(page) !== "file") return `#${fragment}: folder ${target} has no README.md`
    // Fragments into other files (#L10 in source code) are GitHub line links: not checked.
    if (!isMarkdown(page)) return undefined
    const anchors = anchorsOf(treeOf(page))
    if (anchors.includes(fragment)) return undefined
    const closest = [...new Set(anchors)].sort((a, b) => distance(fragment, a) - distance(fragment, b))
    const shown = closest.slice(0, 8).join(", ") + (closest.length > 8 ? `, … (${closest.length - 8} more)` : "")
    return `missing anchor #${fragment} in ${page}; anchors there, closest first: ${shown || "(none)"}`
  }

  return markdownFiles.flatMap((file) =>
    linksOf(treeOf(file)).flatMap(({ url, line }) => {
      const problem = problemOf(file, url)
      return problem === undefined ? [] : [{ file, line, link: url, problem }]
    })
  )
}
