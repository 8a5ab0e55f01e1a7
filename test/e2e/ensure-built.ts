/**
 * Builds the browser files (every `vite build` mode) when dist is missing or older than
 * their sources. Test files run in parallel, so a lock directory makes one build at a time.
 */
import { mkdirSync, readdirSync, rmdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

const root = join(import.meta.dirname, '../..')
const outputs = ['latchkey.js', 'latchkey-components.js', 'latchkey-passkey.js', 'latchkey.iife.js', 'latchkey-settings.js', 'latchkey-steps.js', 'latchkey-page-session.js', 'latchkey-passkey.iife.js', 'latchkey-sw.js', 'latchkey-sw-import.js', 'latchkey-sw-module.js', 'latchkey-react.js', 'latchkey-vue.js', 'latchkey-svelte.js'].map((f) => join(root, 'dist', f))
const sources = ['src/client', 'src/components', 'src/bindings', 'sw', 'src/core', 'src/locales', 'vite.config.ts', 'scripts/drop-in-parts.ts'].map((p) => join(root, p))

function newest(path: string): number {
  const s = statSync(path)
  if (!s.isDirectory()) return s.mtimeMs
  return Math.max(0, ...readdirSync(path).map((f) => newest(join(path, f))))
}

function upToDate(): boolean {
  try {
    const built = Math.min(...outputs.map((f) => statSync(f).mtimeMs))
    return built >= Math.max(...sources.map(newest))
  } catch {
    return false
  }
}

export async function ensureBuilt(): Promise<void> {
  if (upToDate()) return
  const lock = join(root, 'dist/.build-lock')
  mkdirSync(join(root, 'dist'), { recursive: true })
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch {
      // A stale lock (a killed run) is broken after a minute.
      const made = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()
      if (Date.now() - made > 60_000) rmdirSync(lock)
      await sleep(200)
    }
  }
  try {
    if (upToDate()) return
    const { build } = await import('vite')
    // Vite sets NODE_ENV=production in this process when it is unset; the servers started after
    // the build (benchmarks) would then take themselves for production ones.
    const nodeEnv = process.env.NODE_ENV
    try {
      for (const mode of ['production', 'iife', 'iife-passkey', 'sw', 'sw-lib']) {
        await build({ root, configFile: join(root, 'vite.config.ts'), mode, logLevel: 'warn' })
      }
    } finally {
      if (nodeEnv === undefined) delete process.env.NODE_ENV
      else process.env.NODE_ENV = nodeEnv
    }
  } finally {
    rmdirSync(lock)
  }
}
