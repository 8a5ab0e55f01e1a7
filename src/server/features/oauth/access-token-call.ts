/** `auth.getAccessToken`'s two forms, loaded on its first call (get-access-token.ts). */
import type { ResolvedConfig } from '../../kernel/config.js'
import { readSession } from '../../kernel/session.js'
import { contextOf } from '../../kernel/context.js'
import { AccessTokenError, getAccessToken, type AccessTokenOptions } from './access-token.js'

export async function accessTokenFor(
  resolved: ResolvedConfig,
  options: AccessTokenOptions,
  first: { userId: string; provider: string } | Request,
  second: { provider: string } | undefined,
): Promise<string> {
  if (second === undefined) {
    const { userId, provider } = first as { userId: string; provider: string }
    if (typeof userId !== 'string' || !userId) throw new TypeError('latchkey: getAccessToken expected { userId, provider } or (request, { provider })')
    return getAccessToken(resolved, options, userId, provider)
  }
  const ctx = contextOf(first as Request, resolved)
  const read = ctx ? await readSession(ctx, false) : null
  const userId = read?.session ? (read.user?.id ?? read.token?.sub) : undefined
  if (!userId) throw new AccessTokenError('NoLinkedAccount', 'Nobody is signed in on this request')
  return getAccessToken(resolved, options, userId, second.provider)
}
