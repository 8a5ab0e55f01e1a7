/**
 * The user's side of the authorization server: the apps they allowed. GET /connected-apps lists
 * them (name and logo from the configuration, the scopes with their words, when first allowed,
 * when the app last got tokens); POST /connected-apps `{ csrfToken, action: 'revoke', id }` revokes
 * every grant the user gave that client and forgets the consent, so its refresh tokens are refused
 * at once, its access tokens too wherever the grant is checked (this instance's verifyAccessToken,
 * introspection, userinfo), and the next request asks again. Only the signed-in user's own grants
 * are read or changed: an id that is not one of theirs is 404 whoever holds it. And the account's
 * events that end every session (signing out everywhere, a password reset) revoke the grants as
 * the options say.
 */
import { AuthError, json, readAction, requireOwner, type Context, type Reply } from 'latchkey/server'
import { findClient } from './client-lookup.js'
import { oauthStore, serverOptions } from './instance.js'
import type { GrantsOnEvent, ScopeWords } from './options.js'

export const connectedAppErrors = ['ConnectedAppNotFound'] as const

/** One app the user allowed, as GET /connected-apps lists it. */
export interface ConnectedAppInfo {
  /** The client's `client_id`. */
  id: string
  name: string
  logoUri: string | null
  /** What it may do: each scope with its words by language (`en` always). */
  scopes: Array<{ scope: string; words: Record<string, string> }>
  /** ISO dates: when the user first allowed it, and when it last got tokens (null: never). */
  grantedAt: string
  lastUsedAt: string | null
}

const wordsOf = (words: ScopeWords | undefined, scope: string): Record<string, string> => (words === undefined ? { en: scope } : typeof words === 'string' ? { en: words } : { ...words })

async function connectedApps(ctx: Context, userId: string): Promise<ConnectedAppInfo[]> {
  const options = serverOptions.get(ctx.config)
  const store = oauthStore(ctx.config)
  const [grants, consents] = await Promise.all([store.listOAuthUserGrants(userId, new Date(ctx.now)), store.listOAuthUserConsents(userId)])
  const apps = new Map<string, { scopes: Set<string>; grantedAt: number; lastUsedAt: number | null }>()
  const app = (clientId: string, at: number) => {
    let found = apps.get(clientId)
    if (!found) apps.set(clientId, (found = { scopes: new Set(), grantedAt: at, lastUsedAt: null }))
    found.grantedAt = Math.min(found.grantedAt, at)
    return found
  }
  // A remembered consent is an app connected: it gets a code without asking.
  for (const c of consents) c.scope.split(' ').filter(Boolean).forEach((s) => app(c.clientId, c.createdAt.getTime()).scopes.add(s))
  for (const g of grants) {
    // A grant whose tokens may still work: a refresh token unspent, or an access token young enough.
    const live = g.live || g.createdAt.getTime() + options.accessTokenTtl * 1000 > ctx.now
    if (!live && !apps.has(g.clientId)) continue
    const found = app(g.clientId, g.createdAt.getTime())
    if (live) g.scope.split(' ').filter(Boolean).forEach((s) => found.scopes.add(s))
    const used = Math.max(g.createdAt.getTime(), g.lastRefreshAt?.getTime() ?? 0)
    found.lastUsedAt = Math.max(found.lastUsedAt ?? 0, used)
  }
  // Registered and metadata-document clients too (a document from its cache, or fetched once more).
  const clients = new Map(await Promise.all([...apps.keys()].map(async (id) => [id, await findClient(ctx, options, id).catch(() => undefined)] as const)))
  return [...apps]
    .map(([id, a]) => {
      const client = clients.get(id)
      return {
        id,
        name: client?.name ?? id,
        logoUri: client?.logoUri ?? null,
        scopes: [...a.scopes].sort().map((scope) => ({ scope, words: wordsOf(options.scopes[scope], scope) })),
        grantedAt: new Date(a.grantedAt).toISOString(),
        lastUsedAt: a.lastUsedAt === null ? null : new Date(a.lastUsedAt).toISOString(),
      }
    })
    .sort((a, b) => (b.lastUsedAt ?? '').localeCompare(a.lastUsedAt ?? '') || a.name.localeCompare(b.name))
}

/** GET /connected-apps: `{ apps }`, the signed-in user's (401 signed out). */
export async function listConnectedApps(ctx: Context): Promise<Reply> {
  const me = await requireOwner(ctx)
  return json(ctx, { apps: await connectedApps(ctx, me.user.id) })
}

/** POST /connected-apps: `{ csrfToken, action: 'revoke', id }`; answers the apps left. */
export async function actOnConnectedApps(ctx: Context): Promise<Reply> {
  const { body } = await readAction(ctx, ['revoke'])
  const me = await requireOwner(ctx)
  const id = typeof body.id === 'string' ? body.id : ''
  if (!id || id.length > 255) throw new AuthError('InvalidRequest', 'Expected the "id" of one of your connected apps')
  const apps = await connectedApps(ctx, me.user.id)
  if (!apps.some((a) => a.id === id)) throw new AuthError('ConnectedAppNotFound', 'None of your connected apps has this id', { status: 404 })
  await oauthStore(ctx.config).revokeOAuthUserGrants(me.user.id, id, new Date(ctx.now), true)
  return json(ctx, { apps: apps.filter((a) => a.id !== id) })
}

/** An account event that ended every session: the user's grants revoked where the option says so (consents kept: the next request needs a sign-in anyway). */
export async function onAccountEvent(ctx: Context, userId: string, rule: GrantsOnEvent): Promise<void> {
  if (rule === 'revoke') await oauthStore(ctx.config).revokeOAuthUserGrants(userId, null, new Date(ctx.now), false)
}
