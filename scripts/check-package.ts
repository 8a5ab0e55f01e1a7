/**
 * What `npm publish` would ship, checked: every `exports` target and the bin are in it, every
 * relative import (and `new URL('./…', import.meta.url)`) of a shipped file points at a shipped
 * file, README.md, CHANGELOG.md (and LICENSE, when there is one) go along, and no test, source
 * map or TypeScript source does. Run after `npm run build` (.ci/run does, after `npm ci`):
 *
 *   npx tsx scripts/check-package.ts
 *
 * It runs `npm publish --dry-run` (no login needed, nothing is sent) and exits 1 on a problem.
 */
import { execFile } from 'node:child_process'
import { existsSync, realpathSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

/** The problems of a package whose files (paths relative to `root`, as npm lists them) would ship; none is `[]`. */
export async function packageProblems(root: string, files: string[]): Promise<string[]> {
  const shipped = new Set(files)
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { exports?: unknown; bin?: string | Record<string, string> }
  const problems: string[] = []

  for (const [entry, target] of exportTargets(manifest.exports)) {
    const path = posix.normalize(target)
    const found = path.includes('*') ? files.some((file) => wildcard(path).test(file)) : shipped.has(path)
    if (!found) problems.push(`exports["${entry}"] points at ${target}, which the package does not contain (run npm run build, or add it to "files")`)
  }
  const bins = typeof manifest.bin === 'string' ? { bin: manifest.bin } : (manifest.bin ?? {})
  for (const [name, target] of Object.entries(bins)) {
    if (target.startsWith('./')) problems.push(`bin["${name}"] is ${target}: write it without "./" (npm rewrites it when publishing)`)
    if (!shipped.has(posix.normalize(target))) problems.push(`bin["${name}"] points at ${target}, which the package does not contain`)
  }

  for (const file of files.filter((name) => /\.(m?js|d\.ts)$/.test(name))) {
    for (const spec of relativeReferences(await readFile(join(root, file), 'utf8'))) {
      const path = posix.join(posix.dirname(file), spec)
      const candidates = file.endsWith('.d.ts') ? [path, path.replace(/\.js$/, '.d.ts'), `${path}.d.ts`, `${path}/index.d.ts`] : [path]
      if (!candidates.some((candidate) => shipped.has(candidate))) problems.push(`${file} refers to ${spec}, which the package does not contain`)
    }
  }

  const wanted = ['package.json', 'README.md', 'CHANGELOG.md', ...(existsSync(join(root, 'LICENSE')) ? ['LICENSE'] : [])]
  for (const name of wanted) if (!shipped.has(name)) problems.push(`${name} is not in the package; add it to "files"`)
  for (const file of files) {
    if (/(^|\/)test\/|\.test\.|\.map$|(?<!\.d)\.tsx?$/.test(file)) problems.push(`${file} should not ship (a test, a source map or a TypeScript source): narrow "files"`)
  }
  return problems
}

/** Every [entry, target path] of an `exports` field, through its nested conditions. */
function exportTargets(exports: unknown, entry = '.'): [string, string][] {
  if (typeof exports === 'string') return [[entry, exports]]
  if (!exports || typeof exports !== 'object') return []
  return Object.entries(exports).flatMap(([key, value]) => exportTargets(value, key.startsWith('.') ? key : entry))
}

function wildcard(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+')}$`)
}

/** `from './x.js'`, `import('./x.js')`, `import './x.js'` and `new URL('./x', import.meta.url)`. */
function relativeReferences(code: string): string[] {
  const found = new Set<string>()
  for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.\.?\/[^"']+)["']/g)) found.add(match[1]!)
  for (const match of code.matchAll(/new URL\(\s*["'](\.\.?\/[^"']+)["']\s*,\s*import\.meta\.url/g)) found.add(match[1]!)
  return [...found]
}

async function main(): Promise<number> {
  const root = fileURLToPath(new URL('..', import.meta.url))
  let stdout: string
  let stderr: string
  try {
    ;({ stdout, stderr } = await promisify(execFile)('npm', ['publish', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, maxBuffer: 64 << 20 }))
  } catch (error) {
    console.error(`npm publish --dry-run failed:\n${(error as { stderr?: string }).stderr ?? (error as Error).message}`)
    return 1
  }
  const report = Object.values(JSON.parse(stdout) as Record<string, { files: { path: string }[]; size: number }>)[0]!
  const problems = await packageProblems(root, report.files.map((file) => file.path))
  if (/auto-corrected/.test(stderr)) problems.push(`npm would change package.json when publishing:\n${stderr.split('\n').filter((line) => /corrected|invalid|renamed|removed/.test(line)).join('\n')}`)
  if (problems.length > 0) {
    console.error(`The package is not ready to publish:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`)
    return 1
  }
  console.log(`package ok: ${report.files.length} files, ${Math.round(report.size / 1024)} kB packed (npm publish --dry-run)`)
  return 0
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main()
}
