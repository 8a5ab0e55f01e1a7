/**
 * Taking over Auth.js's sessions (`migrateFrom.authjs`): until a date, a request that holds no
 * latchkey session but an Auth.js one gets it moved to latchkey's form on that response
 * (docs/guides/migrating-from-authjs.md). No routes: it hooks the session read only.
 */
import type { LatchkeyPlugin } from '../../kernel/plugin.js'
import { lazy } from '../../kernel/lazy.js'
import type { AdoptedSessions } from '../../kernel/types.js'
import { resolveMigration } from './options.js'

// The reading of old cookies, records and tokens loads on the first read without a latchkey
// session; the options are checked here, at start-up.
const sessions = lazy(() => import('./sessions.js'))

export const authjsMigration: LatchkeyPlugin = {
  id: 'authjs-migration',
  uses: (config) => config.migrateFrom?.authjs !== undefined,
  configure(config, resolved) {
    const option = config.migrateFrom?.authjs
    if (option === undefined) return
    const migration = resolveMigration(option, resolved.secrets)
    let held: AdoptedSessions | undefined
    const load = async () => (held ??= (await sessions()).authjsSessions(migration))
    resolved.adoptedSessions = {
      adopt: async (ctx, write) => (await load()).adopt(ctx, write),
      end: async (ctx) => (await load()).end(ctx),
    }
  },
}
