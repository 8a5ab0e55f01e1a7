import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * The path of the installed package's dist/latchkey-sw.js, found through the package's own
 * exports, so it is the same file wherever npm put the package.
 */
export function workerScript(): string {
  const file = fileURLToPath(import.meta.resolve('latchkey/latchkey-sw.js'))
  if (!existsSync(file)) {
    throw new Error(`latchkey/vite: ${file} is missing: the package was installed without its build. Reinstall it (npm install latchkey), or run npm run build in a git checkout of latchkey.`)
  }
  return file
}
