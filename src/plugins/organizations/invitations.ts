/**
 * Invitations. An admin (or any role with `member:invite`) invites an address with a role no
 * higher than their own; the email carries a link that works once, until it expires, unless it
 * is revoked or replaced (inviting the address again). Only the token's SHA-256 is stored: the
 * link is in the email alone. The link's page changes nothing (mail scanners open links): it
 * names the organization and, for a session whose verified address is the invited one, has a
 * button that posts the token. Accepting spends it in one statement, so of two servers one wins.
 */
import {
  AuthError,
  afterAnswer,
  askedForJson,
  enforceRateLimit,
  ensureCsrfToken,
  escapeHtml,
  findMailer,
  html,
  json,
  pluginEmail,
  pluginWords,
  readAction,
  page,
  requireFresh,
  resolveCallbackUrl,
  signedIn,
  stringField,
  type Body,
  type Context,
  type Reply,
  type SignedIn,
} from 'latchkey/server'
import { setActive, store } from './active.js'
import { aboveOwnRole, alreadyMember, invitationInvalid, invitationNotFound } from './errors.js'
import { fire } from './events.js'
import { readEmail, readId, readRole } from './fields.js'
import { actor, eventView, requirePermission, type Found } from './access.js'
import { messages } from './messages.js'
import type { Resolved } from './options.js'
import type { InvitationRecord } from './records.js'

const toBase64Url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')

async function hashToken(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`latchkey-organization-invitation|${token}`)))
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/** A token as the link carries it: 43 characters of base64url. Anything else is no invitation, read or not. */
const tokenShape = /^[A-Za-z0-9_-]{43}$/

const invitationView = (i: InvitationRecord) => ({ id: i.id, email: i.email, role: i.role, invitedBy: i.invitedBy, expires: i.expires.toISOString(), createdAt: i.createdAt.toISOString() })
const eventInvitation = (i: InvitationRecord) => ({ id: i.id, email: i.email, role: i.role, expires: i.expires })

export async function invite(ctx: Context, options: Resolved, me: SignedIn, { member, organization }: Found, body: Body): Promise<Reply> {
  requirePermission(options, member, 'member:invite')
  const email = readEmail(body)
  const role = readRole(body, options.roles.names)
  const callbackUrl = stringField(body, 'callbackUrl')
  if (options.roles.rank(role) > options.roles.rank(member.role)) throw aboveOwnRole()
  // Inviting an owner is making one: as a transfer of ownership, it needs a fresh sign-in.
  if (role === 'owner') requireFresh(ctx, me.signedInAt)
  const send = findMailer(ctx)
  if (!send) {
    throw new AuthError('NotSupported', 'Invitations need an email provider that delivers the messages latchkey writes: the Nodemailer provider, or sendMail on your Email provider', { status: 501 })
  }
  await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'organizationInvite', me.user.id, ctx.now)
  const existing = await ctx.config.adapter?.getUserByEmail?.(email)
  if (existing && (await store(ctx).getMember(organization.id, existing.id))) throw alreadyMember()
  const token = toBase64Url(crypto.getRandomValues(new Uint8Array(32)))
  const now = ctx.now
  const invitation = await store(ctx).createInvitation({
    id: crypto.randomUUID(),
    organizationId: organization.id,
    email,
    role,
    invitedBy: me.user.id,
    tokenHash: await hashToken(token),
    expires: new Date(now + options.invitationMaxAge * 1000),
    createdAt: new Date(now),
  })
  const link = new URL(`${ctx.baseUrl}/organizations/invitation`)
  link.searchParams.set('token', token)
  if (callbackUrl) link.searchParams.set('callbackUrl', await resolveCallbackUrl(ctx, callbackUrl))
  const message = pluginEmail(ctx, messages, {
    subject: 'inviteSubject',
    lead: 'inviteLead',
    action: { label: 'inviteAction', url: link.href },
    expiry: { link: options.invitationMaxAge },
    footer: 'inviteFooter',
    values: { organization: organization.name, inviter: me.user.name || me.user.email || '', role },
  })
  // After the answer: its time says nothing of the mail server, and a slow one holds nobody up.
  afterAnswer(ctx, `The invitation email (POST /organizations/${organization.id})`, 'EmailSignin', () => send({ ...message, to: email }))
  await fire(ctx, 'organizationInvitationSent', { organization: eventView(organization), invitation: eventInvitation(invitation), by: actor(me) })
  return json(ctx, invitationView(invitation))
}

export async function revokeInvitation(ctx: Context, options: Resolved, me: SignedIn, { member, organization }: Found, body: Body): Promise<Reply> {
  requirePermission(options, member, 'invitation:revoke')
  const invitationId = readId(body, 'invitationId')
  const revoked = await store(ctx).deleteInvitation(organization.id, invitationId)
  if (!revoked) throw invitationNotFound()
  await fire(ctx, 'organizationInvitationRevoked', { organization: eventView(organization), invitation: eventInvitation(revoked), by: actor(me) })
  return json(ctx, { revoked: revoked.id })
}

/** The invitation a token names, while it works; null otherwise (unknown, used, revoked, replaced, expired). */
async function pending(ctx: Context, token: unknown) {
  if (typeof token !== 'string' || !tokenShape.test(token)) return null
  const found = await store(ctx).getInvitationByToken(await hashToken(token))
  return found && found.expires.getTime() > ctx.now ? found : null
}

/** The signed-in user's address, where it is proven: the only one an invitation may be accepted with. */
const verifiedEmail = (me: SignedIn | null) => (me?.user.emailVerified && me.user.email ? me.user.email.toLowerCase() : null)

/** GET /organizations/invitation?token=&callbackUrl=: the link's page. Nothing changes here. */
export async function invitationPage(ctx: Context): Promise<Reply> {
  const words = pluginWords(ctx, messages)
  const query = ctx.url.searchParams
  const [invitation, me] = await Promise.all([pending(ctx, query.get('token')), signedIn(ctx)])
  const signInLink = () => {
    const signIn = new URL(ctx.config.pages.signIn ?? `${ctx.baseUrl}/signin`, ctx.origin)
    signIn.searchParams.set('callbackUrl', ctx.url.href)
    return `<p class="links"><a href="${escapeHtml(signIn.href)}">${words.html('signIn')}</a></p>`
  }
  if (!invitation || (me && verifiedEmail(me) !== invitation.email)) {
    const title = words.text('InvitationInvalid')
    return html(ctx, page(ctx, words, title, `<p class="error" role="alert" data-error="InvitationInvalid">${words.html('InvitationInvalid')}</p>${signInLink()}`), 400)
  }
  const values = { organization: invitation.organizationName, role: invitation.role }
  const title = words.text('invitationHeading', values)
  const lead = `<h1>${escapeHtml(title)}</h1><p>${words.html('invitationLead', values, { organization: `<strong>${escapeHtml(invitation.organizationName)}</strong>`, role: `<strong>${escapeHtml(invitation.role)}</strong>` })}</p>`
  if (!me) return html(ctx, page(ctx, words, title, `${lead}<p>${words.html('invitationSignIn')}</p>${signInLink()}`))
  const hidden = [['csrfToken', await ensureCsrfToken(ctx)], ['action', 'accept'], ['token', query.get('token') ?? ''], ['callbackUrl', query.get('callbackUrl') ?? '']]
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('')
  return html(ctx, page(ctx, words, title, `${lead}<form method="post" action="${escapeHtml(`${ctx.baseUrl}/organizations/invitation`)}">${hidden}<button>${words.html('invitationAccept', values)}</button></form>`))
}

/** Whether the post asked for JSON (a script) rather than a page (the link page's form). */
const wantsJson = (ctx: Context) => (ctx.incoming.header('content-type') ?? '').toLowerCase().startsWith('application/json') || askedForJson(ctx)

/**
 * POST /organizations/invitation `{ csrfToken, action: 'accept', token, callbackUrl? }`: the
 * session's verified address must be the invited one. The organization becomes the session's
 * active one. JSON answers `{ organization }`; the page's form gets a page.
 */
export async function acceptInvitation(ctx: Context): Promise<Reply> {
  const { body } = await readAction(ctx, ['accept'])
  try {
    const me = await signedIn(ctx)
    if (!me) throw new AuthError('AccessDenied', 'Expected a signed-in user; sign in with the invited address first', { status: 401 })
    const token = body.token
    const email = verifiedEmail(me)
    if (typeof token !== 'string' || !tokenShape.test(token) || !email) throw invitationInvalid()
    const accepted = await store(ctx).acceptInvitation({ tokenHash: await hashToken(token), email, userId: me.user.id, memberId: crypto.randomUUID(), now: new Date(ctx.now) })
    if (!accepted) throw invitationInvalid()
    const organization = await store(ctx).getOrganization(accepted.invitation.organizationId)
    if (!organization) throw invitationInvalid()
    const { member, invitation } = accepted
    await setActive(ctx, me.read, member.id)
    const memberInfo = { userId: me.user.id, role: member.role }
    await fire(ctx, 'organizationMemberAdded', { organization: eventView(organization), member: memberInfo, via: 'invitation', by: actor(me) })
    await fire(ctx, 'organizationInvitationAccepted', { organization: eventView(organization), invitation: eventInvitation(invitation), member: memberInfo, by: actor(me) })
    const answer = { id: organization.id, name: organization.name, slug: organization.slug, logo: organization.logo, role: member.role }
    if (wantsJson(ctx)) return json(ctx, { organization: answer })
    const words = pluginWords(ctx, messages)
    const back = await resolveCallbackUrl(ctx, stringField(body, 'callbackUrl'))
    const title = words.text('invitationAccepted', { organization: organization.name })
    return html(
      ctx,
      page(ctx, words, title, `<p class="notice" role="status">${escapeHtml(title)}</p><p class="links"><a href="${escapeHtml(back)}">${words.html('continue')}</a></p>`),
    )
  } catch (error) {
    if (wantsJson(ctx) || !(error instanceof AuthError) || error.status >= 500) throw error
    const words = pluginWords(ctx, messages)
    const title = words.text('InvitationInvalid')
    return html(ctx, page(ctx, words, title, `<p class="error" role="alert" data-error="${escapeHtml(error.code)}">${words.html('InvitationInvalid')}</p>`), error.status)
  }
}
