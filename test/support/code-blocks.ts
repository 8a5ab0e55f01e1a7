/**
 * The code blocks of a Markdown file, for the docs type test (test/package/docs-types.test.ts).
 *
 * Fences tagged ts, typescript, tsx, js, javascript, mjs or jsx are compiled; any other fence
 * (sh, html, none) is prose. An HTML comment on the line right before a compiled fence says how:
 *   <!-- types: skip (why) -->                 not compiled; the reason is required
 *   <!-- types: declare const auth: AuthClient -->   TypeScript put before the block, for the names
 *                                              the snippet uses without defining them
 */

export interface CodeBlock {
  /** The file as named in messages, such as README.md. */
  file: string
  /** The 1-based line of the block's first code line in that file. */
  line: number
  /** The file extension it compiles as. */
  extension: 'ts' | 'tsx' | 'js' | 'jsx'
  code: string
  /** TypeScript from the `types:` comment, put before the code. */
  preamble: string
}

const extensions: Record<string, CodeBlock['extension']> = { ts: 'ts', typescript: 'ts', tsx: 'tsx', js: 'js', javascript: 'js', mjs: 'js', jsx: 'jsx' }

/** Blocks to compile, and the mistakes in their `types:` comments. */
export function codeBlocks(file: string, markdown: string): { blocks: CodeBlock[]; problems: string[] } {
  const lines = markdown.split('\n')
  const blocks: CodeBlock[] = []
  const problems: string[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*(`{3,}|~{3,})\s*([\w+-]*)/.exec(lines[i]!)
    if (!open) continue
    const [, fence, tag] = open as unknown as [string, string, string]
    let end = i + 1
    while (end < lines.length && !(lines[end]!.trim().startsWith(fence) && lines[end]!.trim().replace(/[`~]/g, '') === '')) end++
    const comment = /^\s*<!--\s*types:(.*?)-->\s*$/.exec(lines[i - 1] ?? '')?.[1]?.trim()
    const extension = extensions[tag.toLowerCase()]
    const where = `${file}:${i + 1}`
    if (comment !== undefined && !extension) problems.push(`${where}: a "types:" comment before a ${tag || 'plain'} block, which is not compiled`)
    else if (comment !== undefined && /^skip\b/.test(comment)) {
      if (!/^skip\s*\(.+\)$/.test(comment)) problems.push(`${where}: "types: skip" needs a reason: <!-- types: skip (why) -->`)
    } else if (extension) {
      blocks.push({ file, line: i + 2, extension, code: lines.slice(i + 1, end).join('\n'), preamble: comment ?? '' })
    }
    i = end
  }
  return { blocks, problems }
}

/**
 * The blocks that name a file after their language (```ts auth.ts, ```toml wrangler.toml), by that
 * file: a guide's files as the reader writes them, for the tests that follow the React guide and
 * the runtimes guide.
 */
export function namedBlocks(markdown: string): Record<string, string> {
  const files: Record<string, string> = {}
  for (const [, name, code] of markdown.matchAll(/^```\w+ (\S+)\n([^]*?)^```$/gm)) files[name!] = code!
  return files
}
