/** The related origins' list (related-origins.ts), served at the origin's root. */
import type { Context } from '../../kernel/context.js'
import { json, type Reply } from '../../kernel/respond.js'

/** GET /.well-known/webauthn → `{ origins }`, every WebAuthn provider's related origins; 404 where none are configured. */
export function getRelatedOrigins(ctx: Context): Promise<Reply> {
  const origins = new Set<string>()
  for (const p of ctx.config.providers.values()) if (p.type === 'webauthn') for (const o of p.relatedOrigins ?? []) origins.add(o)
  if (!origins.size) return Promise.resolve(json(ctx, { error: 'UnknownAction', message: 'No WebAuthn provider lists relatedOrigins' }, 404))
  return Promise.resolve(json(ctx, { origins: [...origins] }))
}
