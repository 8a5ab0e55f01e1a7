/**
 * `auth.getAccessToken`: a linked account's provider access token, refreshed with its refresh
 * token when it expires within the skew.
 *
 * Single-flight across servers: using a refresh token twice makes many providers revoke the
 * whole grant, so exactly one caller may send it. That caller first claims the account with a
 * compare-and-set (`updateAccount(…, { ifRefreshToken })`) that swaps the refresh token for a
 * lease holding it; everyone else sees the lease, waits, and re-reads the tokens the holder
 * stores (again by compare-and-set, on the lease). A holder that dies leaves a lease that
 * expires; the next caller takes it over, refresh token included, so nothing is lost.
 */
import * as oauth from 'oauth4webapi'
import type { Adapter, AdapterAccount, OAuthConfig } from '../../../core/types.js'
import { AccessTokenError } from './access-token-error.js'
import { useAdapter } from '../../kernel/adapter-methods.js'
import type { ResolvedConfig } from '../../kernel/config.js'
import { makeClient, requestOptions } from './client.js'
import { providerServer } from './server.js'

export { AccessTokenError, type AccessTokenErrorCode } from './access-token-error.js'

/** What `refresh_error` holds after a refusal. */
export const refusedMark = 'invalid_grant'

/** A claimed refresh token: `<prefix><until ms>:<refresh token>`. */
const leasePrefix = 'latchkey-refreshing:'
/** Longer than latchkey's provider request timeout (10 s), so a live holder never loses its lease. */
const defaultLeaseMs = 15_000
const pollMs = 50

type Methods = 'listAccountsByUserId' | 'getAccount' | 'updateAccount'
type Store = Required<Pick<Adapter, Methods>>

export interface AccessTokenOptions {
  /** Seconds before expiry from which a token is refreshed. */
  skew: number
  /** How long a claim on the refresh token lasts, in milliseconds (tests shorten it). */
  leaseMs?: number
}

export async function getAccessToken(config: ResolvedConfig, options: AccessTokenOptions, userId: string, providerId: string): Promise<string> {
  const provider = config.providers.get(providerId)
  if (!provider || (provider.type !== 'oauth' && provider.type !== 'oidc')) {
    throw new TypeError(`latchkey: getAccessToken expected the id of a configured OAuth or OIDC provider, got ${JSON.stringify(providerId)}`)
  }
  const store = useAdapter(config, ['listAccountsByUserId', 'getAccount', 'updateAccount'], 'getAccessToken')
  const account = (await store.listAccountsByUserId(userId)).find((a) => a.provider === providerId)
  if (!account) throw new AccessTokenError('NoLinkedAccount', `The user has no account with provider "${providerId}"`)
  return tokenOf(config, options, store, provider as OAuthConfig<any>, account)
}

/** The account's access token if it is good, else the one a refresh (ours or another caller's) brings. */
async function tokenOf(config: ResolvedConfig, options: AccessTokenOptions, store: Store, provider: OAuthConfig<any>, first: AdapterAccount): Promise<string> {
  let account: AdapterAccount | null = first
  const leaseMs = options.leaseMs ?? defaultLeaseMs
  // Real time, not the configured clock: a frozen or skewed clock must not make a dead holder's lease last for ever.
  const waitUntil = Date.now() + leaseMs
  for (;;) {
    if (!account) throw new AccessTokenError('NoLinkedAccount', `The account with provider "${provider.id}" was unlinked`)
    const now = config.now()
    const stored = account.refresh_token ?? null
    const lease = leaseOf(stored)
    if (!lease && usable(account, now, options.skew)) return account.access_token!
    if (account.refresh_error !== undefined) throw refused(provider.id)
    if (lease && lease.until > now && Date.now() < waitUntil) {
      // Another caller is refreshing: wait for what it stores.
      await new Promise((resolve) => setTimeout(resolve, pollMs))
      account = await store.getAccount(account.providerAccountId, provider.id)
      continue
    }
    const refreshToken = lease ? lease.refreshToken : stored
    if (!refreshToken) throw new AccessTokenError('NoRefreshToken', `The access token from provider "${provider.id}" expired and the account has no refresh token`)
    const key = { provider: provider.id, providerAccountId: account.providerAccountId }
    const claim = `${leasePrefix}${now + leaseMs}:${refreshToken}`
    const claimed = await store.updateAccount({ ...key, refresh_token: claim }, { ifRefreshToken: stored })
    if (!claimed) {
      account = await store.getAccount(account.providerAccountId, provider.id)
      continue
    }
    return refresh(config, store, provider, key, claim, refreshToken)
  }
}

/** Sends the refresh token (the lease is ours) and stores the outcome, releasing the lease. */
async function refresh(
  config: ResolvedConfig,
  store: Store,
  provider: OAuthConfig<any>,
  key: { provider: string; providerAccountId: string },
  claim: string,
  refreshToken: string,
): Promise<string> {
  const now = config.now()
  let result: oauth.TokenEndpointResponse
  try {
    const { as } = await providerServer(provider)
    const client = makeClient({ now }, provider)
    const response = await oauth.refreshTokenGrantRequest(as, client.client, client.auth, refreshToken, requestOptions([as.token_endpoint]))
    result = await oauth.processRefreshTokenResponse(as, client.client, response)
  } catch (error) {
    if (error instanceof oauth.ResponseBodyError && error.error === 'invalid_grant') {
      // Nothing else changes: the refresh token stays, marked, for the app to tell the user.
      await store.updateAccount({ ...key, refresh_token: refreshToken, refresh_error: refusedMark }, { ifRefreshToken: claim })
      throw refused(provider.id)
    }
    await store.updateAccount({ ...key, refresh_token: refreshToken }, { ifRefreshToken: claim })
    throw new AccessTokenError('ProviderUnreachable', `Refreshing the access token from provider "${provider.id}" failed: ${describe(error)}`)
  }
  const expiresAt = typeof result.expires_in === 'number' ? Math.floor(now / 1000) + Math.floor(result.expires_in) : null
  const stored = await store.updateAccount(
    {
      ...key,
      access_token: result.access_token,
      // A provider that does not rotate sends no new refresh token: the old one stays good.
      refresh_token: result.refresh_token ?? refreshToken,
      expires_at: expiresAt,
      ...(result.id_token !== undefined && { id_token: result.id_token }),
      ...(result.scope !== undefined && { scope: result.scope }),
    },
    { ifRefreshToken: claim },
  )
  if (!stored) {
    // Our lease ran out and another caller took over: its tokens are the ones that count.
    config.logger.warn(`AccessTokenLeaseLost: provider "${provider.id}" answered a refresh after the lease ended`)
  }
  return result.access_token
}

function usable(account: AdapterAccount, now: number, skew: number): boolean {
  if (!account.access_token) return false
  return account.expires_at === undefined || account.expires_at * 1000 - skew * 1000 > now
}

function leaseOf(refreshToken: string | null): { until: number; refreshToken: string } | null {
  if (!refreshToken?.startsWith(leasePrefix)) return null
  const rest = refreshToken.slice(leasePrefix.length)
  const colon = rest.indexOf(':')
  return { until: Number(rest.slice(0, colon)), refreshToken: rest.slice(colon + 1) }
}

function refused(providerId: string): AccessTokenError {
  return new AccessTokenError('RefreshAccessTokenError', `Provider "${providerId}" refused the refresh token (invalid_grant): the user must sign in with it again`)
}

/** The error's kind, never its body: oauth4webapi's errors carry the response, tokens included. */
function describe(error: unknown): string {
  if (error instanceof oauth.ResponseBodyError) return `HTTP ${error.status} error=${error.error}`
  if (error instanceof Error) return `${error.name}${(error as { code?: string }).code ? ` ${(error as { code?: string }).code}` : ''}`
  return 'unknown error'
}
