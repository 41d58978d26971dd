import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { checkLinks, diskFiles, type Files, formatProblem, projectMarkdownFiles } from "./markdown-links.ts"

// In-memory work tree: folders are implied by the files' paths.
const memoryFiles = (files: Readonly<Record<string, string>>): Files => ({
  kind: (path) =>
    path in files ? "file" : path === "." || Object.keys(files).some((f) => f.startsWith(`${path}/`)) ? "dir" : undefined,
  read: (path) => {
    const text = files[path]
    if (text === undefined) throw new Error(`no file ${path}`)
    return text
  }
})

const check = (files: Readonly<Record<string, string>>): ReadonlyArray<string> =>
  checkLinks(Object.keys(files).filter((f) => f.endsWith(".md")), memoryFiles(files)).map(formatProblem)

describe("link checker", () => {
  it("accepts existing files, folders, anchors and absolute URLs", () => {
    expect(check({
      "README.md": [
        "# Title", "", "## Quick start", "",
        "[install](docs/install.md), [status](docs/operations.md#status-page), [top](#quick-start),",
        "[config](config/), [demo](config/demo.yaml), [mail](mailto:a@b.c), [web](https://example.com/x.md#nope),",
        "[self](README.md#title), [root](/docs/install.md), ![timeline](docs/timeline.png)"
      ].join("\n"),
      "docs/install.md": "# Install\n\n[back](../README.md#quick-start) [demo](../config/demo.yaml)",
      "docs/operations.md": "# Operations\n\n## Status page\n",
      "docs/timeline.png": "",
      "config/demo.yaml": ""
    })).toEqual([])
  })

  it("reports a missing file with file:line", () => {
    expect(check({ "README.md": "# A\n\nsee [install](docs/instal.md)\n", "docs/install.md": "" })).toEqual([
      "README.md:3: (docs/instal.md) missing file or folder docs/instal.md"
    ])
  })

  it("reports a missing anchor and lists the anchors there, closest first", () => {
    expect(check({
      "README.md": "[s](docs/operations.md#status-pages)",
      "docs/operations.md": "# Operations\n\n## Metrics\n\n## Status page\n"
    })).toEqual([
      "README.md:1: (docs/operations.md#status-pages) missing anchor #status-pages in docs/operations.md; anchors there, closest first: status-page, metrics, operations"
    ])
  })

  it("numbers duplicate headings as GitHub does", () => {
    const page = (headings: string) => ({ "a.md": `${headings}\n\n[second](#setup-1)\n` })
    expect(check(page("## Setup\n\n## Setup"))).toEqual([])
    expect(check(page("## Setup\n\n## Other"))).toEqual([
      "a.md:5: (#setup-1) missing anchor #setup-1 in a.md; anchors there, closest first: setup, other"
    ])
  })

  it("slugs headings like GitHub: inline code and HTML text kept, tags and punctuation dropped", () => {
    expect(check({
      "a.md": "### Commissioning: `doctor`, `sniff` <sup>new</sup>\n\n[c](#commissioning-doctor-sniff-new)"
    })).toEqual([])
  })

  it("ignores links in code spans and code blocks", () => {
    expect(check({ "a.md": "`[x](missing.md)`\n\n```\n[y](missing.md#nope)\n```\n\n    [z](missing.md)\n" })).toEqual([])
  })

  it("checks reference-style links and images at their definition", () => {
    expect(check({ "a.md": "[x][ref] and ![img][pic]\n\n[ref]: b.md#nope\n[pic]: missing.png\n", "b.md": "# B" })).toEqual([
      "a.md:3: (b.md#nope) missing anchor #nope in b.md; anchors there, closest first: b",
      "a.md:4: (missing.png) missing file or folder missing.png"
    ])
  })

  it("accepts explicit <a id> and <a name> anchors and checks raw HTML links", () => {
    expect(check({
      "a.md": '<a id="custom"></a>\n\nText <a name="inline"></a>.\n\n[c](#custom) [i](#inline)\n\n<img src="gone.png">'
    })).toEqual(["a.md:7: (gone.png) missing file or folder gone.png"])
  })

  it("treats a folder's anchor as its README's", () => {
    expect(check({ "a.md": "[x](adapters/json#fields) [y](adapters/json/#nope)", "adapters/json/README.md": "## Fields" })).toEqual([
      "a.md:1: (adapters/json/#nope) missing anchor #nope in adapters/json/README.md; anchors there, closest first: fields"
    ])
  })
})

describe("the project's Markdown files", () => {
  const root = fileURLToPath(new URL("../..", import.meta.url))
  const files = projectMarkdownFiles(root)

  it("include the README and the adapters' READMEs", () => {
    expect(files).toContain("README.md")
    expect(files.filter((f) => /^adapters\/[^/]+\/README\.md$/u.test(f)).length).toBeGreaterThan(0)
  })

  it.each(files)("%s: every relative link and anchor resolves", (file) => {
    const problems = checkLinks([file], diskFiles(root)).map(formatProblem)
    if (problems.length > 0) expect.fail(`${problems.length} broken link(s):\n${problems.join("\n")}`)
  })
})
