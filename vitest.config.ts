import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Browser state can take seconds to settle while other suites load both cores.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
  },
})
