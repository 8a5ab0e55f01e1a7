import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'
import { missingServiceBanner } from './test/support/needs-service.js'

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url))

/**
 * Files whose every test needs a service. Without the service a local run leaves them out, with a
 * banner; under CI=true they stay in and fail on the missing variable (test/support/needs-service.ts).
 */
const serviceOnly: Record<string, { example: string; files: string[] }> = {
  DATABASE_URL: {
    example: 'postgres://postgres@127.0.0.1:5432/test',
    files: ['test/adapters/postgres.test.ts', 'test/adapters/open-errors.test.ts', 'test/integration/multi-server.test.ts', 'test/hardening/soak.test.ts'],
  },
  REDIS_URL: { example: 'redis://127.0.0.1:6379', files: ['test/rate-limit/redis.test.ts'] },
}
const leftOut = Object.entries(serviceOnly).flatMap(([variable, { example, files }]) => {
  if (process.env[variable] || process.env.CI === 'true') return []
  console.warn(missingServiceBanner(variable, `${files.join(', ')} did NOT run`, `${variable}=${example} npx vitest run ${files.join(' ')}`))
  return files
})

export default defineConfig({
  // The examples import the package by name, as an app does; tests run them from source
  // (tsconfig.json's `paths` say the same to tsc and tsx).
  resolve: {
    alias: [
      { find: /^latchkey\/server$/, replacement: src('server/index.ts') },
      { find: /^latchkey\/node$/, replacement: src('node/index.ts') },
      { find: /^latchkey\/adapters\/memory$/, replacement: src('adapters/memory.ts') },
      { find: /^latchkey\/adapters\/postgres$/, replacement: src('adapters/postgres/index.ts') },
      { find: /^latchkey\/providers\/(.*)$/, replacement: src('providers/$1.ts') },
      { find: /^latchkey\/plugins\/(.*)$/, replacement: src('plugins/$1/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...leftOut],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Browser state can take seconds to settle while other suites load both cores.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
  },
})
