import { fileURLToPath } from 'node:url'
import { relative } from 'node:path'
import { configDefaults, defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { missingServiceBanner } from './test/support/needs-service.js'
import { filesOf, longest, root, type Tier } from './test/support/tiers.js'

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url))

/**
 * Files whose every test needs a service. Without the service a local run leaves them out, with a
 * banner; under CI=true they stay in and fail on the missing variable (test/support/needs-service.ts).
 */
const serviceOnly: Record<string, { example: string; files: string[] }> = {
  DATABASE_URL: {
    example: 'postgres://postgres@127.0.0.1:5432/test',
    files: ['test/adapters/postgres.test.ts', 'test/adapters/postgres-outage.test.ts', 'test/adapters/open-errors.test.ts', 'test/integration/multi-server.test.ts', 'test/integration/graceful-shutdown.test.ts', 'test/hardening/soak.test.ts'],
  },
  REDIS_URL: { example: 'redis://127.0.0.1:6379', files: ['test/rate-limit/redis.test.ts'] },
}
const leftOut = Object.entries(serviceOnly).flatMap(([variable, { example, files }]) => {
  if (process.env[variable] || process.env.CI === 'true') return []
  // Vitest loads this file once more for each project that extends it: one banner is enough.
  if (!(globalThis as { bannerShown?: boolean }).bannerShown) console.warn(missingServiceBanner(variable, `${files.join(', ')} did NOT run`, `${variable}=${example} npx vitest run ${files.join(' ')}`))
  return files
})
;(globalThis as { bannerShown?: boolean }).bannerShown = true

/**
 * Vitest's default is one worker fewer than the cores: one, on a 2-core machine. Browser and HTTP
 * files mostly wait on sockets and other processes, so more run side by side than there are cores.
 * Browsers two at a time: with three, WebKit's engines test ran past its 90 s on a loaded machine.
 */
const workers: Record<Tier, number> = { unit: 2, http: 3, browser: 2, slow: 3 }

function tier(name: Tier, groupOrder: number) {
  // The slow tier packs the package once for the files that install it (test/support/packed.ts).
  const globalSetup = name === 'slow' ? ['test/support/pack-dir.ts'] : []
  // Unit files start nothing: worker threads cost them about a third less CPU than processes.
  const pool = name === 'unit' ? 'threads' : 'forks'
  return { extends: true, test: { name, include: filesOf(name), pool, maxWorkers: workers[name], sequence: { groupOrder }, globalSetup } } as const
}

/**
 * Vitest's order (files that failed last time, then the longest, from its cache; larger files when
 * it has none, as in a fresh clone), with the files known to be longest first.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const rank = (spec: TestSpecification) => {
      const at = longest.indexOf(relative(root, spec.moduleId).split('\\').join('/'))
      return at < 0 ? longest.length : at
    }
    const group = (spec: TestSpecification) => spec.project.config.sequence.groupOrder
    return (await super.sort(files)).sort((a, b) => group(a) - group(b) || rank(a) - rank(b))
  }
}

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
    exclude: [...configDefaults.exclude, ...leftOut],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Browser state can take seconds to settle while other suites load both cores.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    sequence: { sequencer: LongestFirst },
    // The tiers (test/support/tiers.ts says which file is where): `npm test` runs them one after
    // the other (scripts/test.mjs); a bare `vitest run` does too, in this order.
    projects: [tier('unit', 0), tier('http', 1), tier('browser', 2), tier('slow', 3)],
  },
})
