/**
 * Builds the browser side of the demo with Vite: the app (demo/vite.config.ts), the drop-in script
 * with the parts it loads beside it and its passkey part, the elements' language files it loads beside it, and the session worker
 * (the package's own vite.config.ts, modes `iife`, `iife-passkey`, `locales` and `sw`), all into one folder. Skipped when no source changed since the last
 * build (a stamp of paths, sizes and mtimes).
 */
import { createHash } from 'node:crypto'
import { readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import type { InlineConfig } from 'vite'

const sources = ['src/client', 'src/components', 'src/core', 'src/locales', 'src/bindings', 'sw', 'demo/app', 'demo/vite.config.ts', 'vite.config.ts', 'scripts/drop-in-parts.ts', 'package-lock.json']

async function files(path: string): Promise<string[]> {
  const info = await stat(path).catch(() => undefined)
  if (!info) return []
  if (!info.isDirectory()) return [path]
  const entries = await readdir(path, { withFileTypes: true })
  return (await Promise.all(entries.map((e) => files(join(path, e.name))))).flat()
}

async function stampOf(root: string): Promise<string> {
  const all = (await Promise.all(sources.map((s) => files(join(root, s))))).flat().sort()
  const hash = createHash('sha256')
  for (const file of all) {
    const { size, mtimeMs } = await stat(file)
    hash.update(`${relative(root, file)}\0${size}\0${mtimeMs}\n`)
  }
  return hash.digest('hex')
}

export interface BuildResult {
  /** false: the last build was still current. */
  built: boolean
  ms: number
}

export async function buildBrowser(root: string, outDir: string): Promise<BuildResult> {
  const started = Date.now()
  const stamp = await stampOf(root)
  const stampFile = join(outDir, 'stamp.txt')
  if ((await readFile(stampFile, 'utf8').catch(() => '')) === stamp) return { built: false, ms: Date.now() - started }

  const { build } = await import('vite')
  // A fresh folder, swapped in when complete: a concurrent start never serves half a build.
  const temp = `${outDir}.${process.pid}`
  const into = (configFile: string, mode?: string): InlineConfig => ({ configFile: join(root, configFile), root: mode ? root : undefined, mode, build: { outDir: temp, emptyOutDir: false } })
  await rm(temp, { recursive: true, force: true })
  await build(into('demo/vite.config.ts'))
  await Promise.all(['iife', 'iife-passkey', 'locales', 'sw'].map((mode) => build(into('vite.config.ts', mode))))
  await writeFile(join(temp, 'stamp.txt'), stamp)
  // Another start may have swapped in this same build meanwhile, and serves it: it stays.
  const current = async () => (await readFile(stampFile, 'utf8').catch(() => '')) === stamp
  if (!(await current())) {
    await rm(outDir, { recursive: true, force: true })
    await rename(temp, outDir).catch(async (e) => {
      if (!(await current())) throw e
    })
  }
  await rm(temp, { recursive: true, force: true })
  return { built: true, ms: Date.now() - started }
}
