/**
 * The slow tier's global set-up: a folder for this run's one `npm pack` (test/support/packed.ts),
 * removed when the run ends. Nothing is packed unless a file asks.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    packDir: string
  }
}

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(join(tmpdir(), 'latchkey-pack-'))
  project.provide('packDir', dir)
  return () => rm(dir, { recursive: true, force: true })
}
