/**
 * Every relative link and image in the README and docs/ leads somewhere: the file exists, and a
 * `#fragment` into a Markdown file names one of its headings (as GitHub makes their ids).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { expect, test } from 'vitest'

const root = join(import.meta.dirname, '../..')

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return markdownFiles(path)
    return name.endsWith('.md') ? [path] : []
  })
}

/** GitHub's heading id: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
export function headingId(heading: string): string {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

/** The ids of a Markdown file's headings, repeats numbered as GitHub numbers them. */
function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>()
  const counts = new Map<string, number>()
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line)?.[1]
    if (!heading) continue
    const id = headingId(heading)
    const n = counts.get(id) ?? 0
    counts.set(id, n + 1)
    ids.add(n ? `${id}-${n}` : id)
  }
  return ids
}

const withoutFences = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '')
const withoutCode = (markdown: string) => withoutFences(markdown).replace(/`[^`\n]*`/g, '')

const files = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))]

test('headings get the ids GitHub gives them', () => {
  expect(headingId('Rate limits')).toBe('rate-limits')
  expect(headingId('`<latchkey-signin>`')).toBe('latchkey-signin')
  expect(headingId('Proxies and client addresses')).toBe('proxies-and-client-addresses')
  expect(headingId('What "last used" means, and why')).toBe('what-last-used-means-and-why')
})

test('every relative link and image in the README and docs/ exists, and every #fragment names a heading', () => {
  const broken: string[] = []
  for (const file of files) {
    const text = withoutCode(readFileSync(file, 'utf8'))
    for (const [, target] of text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // http:, mailto: and the like
      const [path, fragment] = target.split('#')
      const resolved = path ? join(dirname(file), decodeURIComponent(path)) : file
      const where = `${relative(root, file)}: ${target}`
      if (!existsSync(resolved)) {
        broken.push(`${where} (no such file)`)
        continue
      }
      if (fragment && resolved.endsWith('.md') && !headingIds(readFileSync(resolved, 'utf8')).has(fragment)) broken.push(`${where} (no such heading)`)
    }
  }
  expect(broken).toEqual([])
})
