/**
 * Taking over Auth.js's sessions (`migrateFrom.authjs`): until a date, a request that holds no
 * latchkey session but an Auth.js one gets it moved to latchkey's form on that response
 * (docs/guides/migrating-from-authjs.md). No routes: it hooks the session read only.
 */
import type { LatchkeyPlugin } from '../../kernel/plugin.js'
import { resolveMigration } from './options.js'
import { authjsSessions } from './sessions.js'

export const authjsMigration: LatchkeyPlugin = {
  id: 'authjs-migration',
  uses: (config) => config.migrateFrom?.authjs !== undefined,
  configure(config, resolved) {
    const option = config.migrateFrom?.authjs
    if (option !== undefined) resolved.adoptedSessions = authjsSessions(resolveMigration(option, resolved.secrets))
  },
}
