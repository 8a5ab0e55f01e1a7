/**
 * /identity: who the signed-in user is, and changing it.
 * - GET /identity → `{ name, email, image, emailChange }` (`emailChange`: whether the address can
 *   be changed here, where an email provider delivers latchkey's messages).
 * - POST /identity `{ csrfToken, action: 'update', name?, image? }` → the same, once stored: each a
 *   string or null to clear it (fields.ts). A JWT session carries them: this browser's is written anew.
 * - POST /identity `{ csrfToken, action: 'change-email', email, callbackUrl? }` on a fresh session
 *   → `{ ok: true }`, whoever has the address; the link goes to it (email-change.ts).
 * - GET /identity/email: the link's page (pages.ts); POST /identity/email `{ csrfToken, email,
 *   token, callbackUrl? }`: the link used, by the user it was made for.
 * The user is always the session's: no id is read from the request.
 */
import type { AdapterUser, IdentityInfo } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import { readBody } from '../../kernel/body.js'
import type { Context } from '../../kernel/context.js'
import { verifyCsrf } from '../../kernel/csrf.js'
import { managedAdapter, readAction, requireOwner, signedIn } from '../../kernel/manage.js'
import { json, type Reply } from '../../kernel/respond.js'
import { rewriteSessionUser } from '../../kernel/session.js'
import { askEmailChange, confirmEmailChange } from './email-change.js'
import { readProfileChange } from './fields.js'
import { findMailer } from './mailer.js'
import { changedPage, linkPage, refusedPage } from './pages.js'

const infoOf = (ctx: Context, user: AdapterUser): IdentityInfo => ({ name: user.name ?? null, email: user.email, image: user.image ?? null, emailChange: !!findMailer(ctx) })

export async function getIdentity(ctx: Context, sub: string | undefined): Promise<Reply> {
  if (sub === 'email') return linkPage(ctx, await signedIn(ctx))
  if (sub !== undefined) throw new AuthError('UnknownAction', 'GET /identity takes no path segment but email (the email change link)', { status: 404 })
  const { user } = await requireOwner(ctx)
  return json(ctx, infoOf(ctx, user))
}

export async function postIdentity(ctx: Context, sub: string | undefined): Promise<Reply> {
  if (sub === 'email') return useLink(ctx)
  if (sub !== undefined) throw new AuthError('UnknownAction', 'POST /identity takes no path segment but email (the email change link)', { status: 404 })
  const { body, action } = await readAction(ctx, ['update', 'change-email'])
  const me = await requireOwner(ctx)
  if (action === 'change-email') return json(ctx, await askEmailChange(ctx, me, body))
  const change = readProfileChange(body)
  const user = await managedAdapter(ctx, ['updateUser'], 'Changing the name or image').updateUser({ id: me.user.id, ...change })
  await rewriteSessionUser(ctx, me.read, user)
  return json(ctx, infoOf(ctx, user))
}

/** POST /identity/email: JSON for a script, a page for the link page's form. */
async function useLink(ctx: Context): Promise<Reply> {
  const fromPage = !ctx.returnRedirect && /html/.test(ctx.incoming.header('accept') ?? '')
  const body = await readBody(ctx.request, ctx.config.maxBodySize)
  const back = typeof body.callbackUrl === 'string' ? body.callbackUrl : undefined
  try {
    await verifyCsrf(ctx, body.csrfToken)
    const me = await signedIn(ctx)
    if (!me) throw new AuthError('AccessDenied', 'Expected the signed-in user who asked for this change: sign in as that account, then open the link again', { status: 401 })
    const user = await confirmEmailChange(ctx, me, body)
    return fromPage ? changedPage(ctx, user.email, back) : json(ctx, infoOf(ctx, user))
  } catch (error) {
    if (!fromPage || !(error instanceof AuthError) || error.status >= 500) throw error
    return refusedPage(ctx, error, back)
  }
}
