import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url))

export default defineConfig({
  // The examples import the package by name, as an app does; tests run them from source
  // (tsconfig.json's `paths` say the same to tsc and tsx).
  resolve: {
    alias: [
      { find: /^latchkey\/server$/, replacement: src('server/index.ts') },
      { find: /^latchkey\/adapters\/memory$/, replacement: src('adapters/memory.ts') },
      { find: /^latchkey\/adapters\/postgres$/, replacement: src('adapters/postgres/index.ts') },
      { find: /^latchkey\/providers\/(.*)$/, replacement: src('providers/$1.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Browser state can take seconds to settle while other suites load both cores.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
  },
})
