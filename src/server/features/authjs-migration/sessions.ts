/** What the session read asks of Auth.js's sessions (kernel/types.ts `AdoptedSessions`), until the window ends. */
import type { JWT } from '../../../core/types.js'
import { nextExpiry } from '../../../core/session-rule.js'
import type { Context } from '../../kernel/context.js'
import type { AdoptedSession, AdoptedSessions } from '../../kernel/types.js'
import { clearOldCookies, hasOldCookie, oldCookies, type OldCookie } from './cookies.js'
import { adoptRecord, endRecord } from './database.js'
import { openOldToken } from './jwt.js'
import type { AuthjsMigration } from './options.js'

/**
 * Claims not carried: those Auth.js sets on every token (the new token sets its own times and has
 * no id), and those latchkey reads as a sign-in here (its instant, factors and provider): a
 * session taken over proved nothing here, so it is never fresh and shows no `amr`.
 */
const ownClaims = new Set(['iat', 'exp', 'nbf', 'jti', 'auth_time', 'amr', 'sign_in_provider', '__proto__'])

export function authjsSessions(migration: AuthjsMigration): AdoptedSessions {
  return {
    async adopt(ctx, write) {
      if (!hasOldCookie(ctx)) return null
      let adopted: AdoptedSession | null = null
      // After the window nothing old is read; the cookies are still cleared.
      if (ctx.now < migration.until) {
        for (const cookie of oldCookies(ctx)) {
          adopted = ctx.config.session.strategy === 'database' ? await adoptRecord(ctx, cookie.value, write) : await adoptToken(ctx, cookie, migration)
          if (adopted) break
        }
      }
      if (write) clearOldCookies(ctx)
      return adopted
    },
    async end(ctx) {
      if (!hasOldCookie(ctx)) return
      if (ctx.config.session.strategy === 'database') for (const cookie of oldCookies(ctx)) await endRecord(ctx, cookie.value)
      clearOldCookies(ctx)
    },
  }
}

/** An Auth.js JWT as latchkey's claims: all that its `jwt` callback kept, with the old expiry (never past latchkey's `maxAge`). */
async function adoptToken(ctx: Context, cookie: OldCookie, migration: AuthjsMigration): Promise<AdoptedSession | null> {
  const payload = await openOldToken(cookie, migration.secrets, ctx.now)
  if (!payload) return null
  const claims: JWT = {}
  for (const name in payload) if (!ownClaims.has(name)) claims[name] = payload[name]
  const nowSeconds = Math.floor(ctx.now / 1000)
  const exp = Math.min(payload.exp, Math.floor(nextExpiry(ctx.now, ctx.config.session.maxAge) / 1000))
  return { payload: { ...claims, exp, iat: nowSeconds } }
}
