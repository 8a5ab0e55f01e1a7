/**
 * GET /plugins: `{ plugins }`, the ids of the plugins this instance installed: the built-in
 * features its configuration uses (`mfa` only with `mfa` set, `password` with a `Password()`
 * provider, ...) and those of `plugins` (`organizations`, `sso`, `scim`, `oauth-server`, ...). The
 * elements read it to show only what the server answers. It is the same for every request: it
 * names no user, reads no cookie and says nothing the configuration does not.
 */
import type { Context } from '../kernel/context.js'
import { json, type Reply } from '../kernel/respond.js'

/** The id of the part every instance has (the shared sign-in step's cookie): not a plugin anyone configured. */
export const sharedPartId = 'sign-in'

export async function getPlugins(ctx: Context): Promise<Reply> {
  return json(ctx, { plugins: ctx.config.plugins.flatMap((p) => (p.id === sharedPartId ? [] : [p.id])) })
}
