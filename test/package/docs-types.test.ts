/**
 * Every TypeScript and JavaScript block of README.md and docs/ compiles under `strict`, against the
 * package as npm installs it, with `bundler` and with `nodenext` module resolution. The comment
 * convention for blocks is in test/support/code-blocks.ts. A failure names the Markdown file and
 * line, so a snippet that stops compiling (or never did) shows where to look.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { codeBlocks, type CodeBlock } from '../support/code-blocks.js'
import { installPacked, repoRoot, type PackedProject } from '../support/packed.js'

/** The harness's own check: each mistake below must come out named by its file and line. */
const fixture = `# Fixture
<!-- types: declare const n: number -->
\`\`\`ts
const s: string = n
\`\`\`

\`\`\`ts
import { createAuthClient } from 'latchkey'
createAuthClient({ basePath: 1 })
console.log(undeclared)
\`\`\`

<!-- types: skip (not TypeScript at all) -->
\`\`\`ts
this is not code
\`\`\`

\`\`\`sh
neither is this
\`\`\`

<!-- types: skip -->
\`\`\`js
// a skip without a reason
\`\`\`
`
const fixtureErrors = [
  "fixture.md:4: error TS2322: Type 'number' is not assignable to type 'string'.",
  "fixture.md:9: error TS2322: Type 'number' is not assignable to type 'string'.",
  "fixture.md:10: error TS2304: Cannot find name 'undeclared'. Declare it in a <!-- types: declare const undeclared: ... --> comment on the line before the block.",
]
const fixtureProblems = ['fixture.md:23: "types: skip" needs a reason: <!-- types: skip (why) -->']

async function markdownFiles(): Promise<string[]> {
  const docs = (await readdir(join(repoRoot, 'docs'), { recursive: true })).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))
  return ['README.md', ...docs.sort()]
}

let app: PackedProject
const blocks = new Map<string, CodeBlock>()
const problems: string[] = []

beforeAll(async () => {
  app = await installPacked()
  // The packages the snippets import besides latchkey, as the app would have installed them.
  await app.link('@types/node', 'ioredis', 'pg', '@types/pg', 'postgres', 'nodemailer', '@types/nodemailer', '@electric-sql/pglite', 'express', '@types/express', '@types/express-serve-static-core', '@types/serve-static', '@types/body-parser', '@types/qs', '@types/range-parser', '@types/send', '@types/http-errors', '@types/connect', 'hono', 'workbox-precaching', 'workbox-routing', 'workbox-strategies', 'workbox-core', 'react', '@types/react', 'vue', '@vue/reactivity', '@vue/runtime-core', '@vue/runtime-dom', '@vue/shared', 'csstype', 'svelte')
  const sources: Array<[string, string]> = [['fixture.md', fixture]]
  for (const file of await markdownFiles()) sources.push([file, await readFile(join(repoRoot, file), 'utf8')])
  await mkdir(join(app.dir, 'blocks'))
  for (const [file, markdown] of sources) {
    const found = codeBlocks(file, markdown)
    problems.push(...found.problems)
    for (const block of found.blocks) {
      const name = `blocks/${file.replace(/[^\w.-]/g, '_')}-L${block.line}.${block.extension}`
      blocks.set(name, block)
      await writeFile(join(app.dir, name), `${block.preamble}\nexport {}\n${block.code}\n`)
    }
  }
}, 600_000)
afterAll(() => app?.remove())

const resolutions = {
  bundler: { module: 'preserve', moduleResolution: 'bundler' },
  nodenext: { module: 'nodenext', moduleResolution: 'nodenext' },
}

/** tsc's diagnostics, each turned to `<markdown file>:<line>: error TS…` where it came from a block. */
async function compile(resolution: keyof typeof resolutions): Promise<string[]> {
  const config = {
    compilerOptions: {
      ...resolutions[resolution],
      target: 'ES2022',
      lib: ['ES2023', 'DOM', 'DOM.Iterable'],
      types: ['node'],
      strict: true,
      noEmit: true,
      allowJs: true,
      checkJs: true,
      jsx: 'react-jsx',
      skipLibCheck: true,
    },
    include: ['blocks'],
  }
  const path = join(app.dir, `tsconfig.${resolution}.json`)
  await writeFile(path, JSON.stringify(config))
  const { stdout } = await app.run(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', path, '--pretty', 'false'])
  const diagnostics = stdout.split(/\n(?=\S)/).filter((d) => d.trim())
  return diagnostics.map((diagnostic) => {
    const at = /^(blocks\/[^(]+)\((\d+),\d+\): ([^]*)$/.exec(diagnostic.trim())
    const block = at && blocks.get(at[1]!)
    if (!block) return diagnostic.trim()
    const lineInBlock = Number(at![2]) - block.preamble.split('\n').length - 1
    if (lineInBlock < 1) return `${block.file}:${block.line - 2} (its types: comment): ${at![3]}`
    let message = at![3]!.replace(/\s+/g, ' ')
    const free = /(?:Cannot find name|No value exists in scope for the shorthand property) '(\w+)'/.exec(message)?.[1]
    if (free) message += ` Declare it in a <!-- types: declare const ${free}: ... --> comment on the line before the block.`
    return `${block.file}:${block.line + lineInBlock - 1}: ${message}`
  })
}

describe('the code blocks of README.md and docs/ compile under strict against the packed package', () => {
  test('the blocks are found, and every types: comment is well formed', () => {
    const files = new Set([...blocks.values()].map((b) => b.file))
    expect(files).toContain('README.md')
    expect(files).toContain('docs/providers.md')
    expect(problems).toEqual(fixtureProblems)
  })

  for (const resolution of Object.keys(resolutions) as Array<keyof typeof resolutions>) {
    test(`moduleResolution ${resolution}`, async () => {
      const errors = await compile(resolution)
      expect(errors.filter((e) => !e.startsWith('fixture.md:'))).toEqual([])
      expect(errors.filter((e) => e.startsWith('fixture.md:'))).toEqual(fixtureErrors)
    }, 120_000)
  }
})
