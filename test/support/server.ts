/** Builds a handler for tests: a memory adapter, a credentials and an email provider, a clock the test moves. */
import { MemoryAdapter } from '../../src/adapters/memory.js'
import Credentials from '../../src/providers/credentials.js'
import Email from '../../src/providers/email.js'
import { Latchkey, type LatchkeyPlugin } from '../../src/server/index.js'
import type { Adapter, AuthConfig, Logger, Provider, SendVerificationRequestParams } from '../../src/core/types.js'

export const testSecret = 'test-secret-0123456789-abcdefghij'

export interface TestServerOptions extends Partial<AuthConfig> {
  strategy?: 'jwt' | 'database'
  /** Providers beside the credentials and email ones. */
  extraProviders?: Provider[]
}

export function testServer(options: TestServerOptions = {}) {
  const clock = { now: Date.parse('2026-01-01T00:00:00Z') }
  const adapter = MemoryAdapter({ plugins: withSchema(options.plugins) })
  const outbox: SendVerificationRequestParams[] = []
  const logs: string[] = []
  const logger: Logger = {
    error: (e) => logs.push(`error ${e.name}: ${e.message} ${e.cause instanceof Error ? e.cause.message : ''}`),
    warn: (c) => logs.push(`warn ${c}`),
    debug: () => {},
  }
  const { strategy = 'database', extraProviders = [], session, ...rest } = options
  const handler = Latchkey({
    secret: testSecret,
    adapter: strategy === 'database' ? adapter : undefined,
    session: { strategy, maxAge: 30 * 86400, updateAge: 86400, ...session },
    now: () => clock.now,
    logger,
    providers: [
      Credentials({
        credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
        authorize: async (c) =>
          c.username === 'ada' && c.password === 'lovelace' ? { id: 'user-ada', name: 'Ada', email: 'ada@example.com' } : null,
      }),
      Email({ sendVerificationRequest: (params) => void outbox.push(params) }),
      ...extraProviders,
    ],
    ...rest,
  })
  return { handler, adapter, outbox, logs, clock }
}

/**
 * The configuration's plugins that add to the store, each id once: the memory adapter is made with
 * them. Others (and what is not a plugin list at all) are left for `Latchkey` to judge.
 */
function withSchema(plugins: unknown): LatchkeyPlugin[] {
  if (!Array.isArray(plugins)) return []
  const byId = new Map<string, LatchkeyPlugin>()
  for (const plugin of plugins as LatchkeyPlugin[]) if (plugin?.schema && !byId.has(plugin.id)) byId.set(plugin.id, plugin)
  return [...byId.values()]
}

/** A memory adapter without latchkey's code methods, as Auth.js's adapters are: its codes and tries are kept in its verification tokens. */
export function withoutCodeMethods(): Adapter {
  const { createVerificationCode: _c, useVerificationCode: _u, deleteVerificationCodes: _d, ...rest } = MemoryAdapter()
  return rest
}

/** The last emailed link, as a path the jar can follow. */
export function lastLink(outbox: SendVerificationRequestParams[]): string {
  const url = new URL(outbox.at(-1)!.url)
  return url.pathname + url.search
}
