/**
 * The two steps. POST /signin/<id> with `phone`: the code is stored and the answer goes out, the
 * same for a number with an account and one without (nothing is looked up); the SMS is sent after
 * the answer, so its time tells nothing either. POST /callback/<id> with `phone` and `code`: the
 * code is spent, then the number's user signs in (a new one is made for a new number; a signed-in
 * user adds the number to their account, as any sign-in while signed in links its account).
 */
import { afterAnswer, completeSignIn, enforceRateLimit, issueCode, postedCallback, redirect, spendCode, type Body, type Context, type Reply } from 'latchkey/server'
import { signInWith } from './account.js'
import { codeKind, codeMinutes } from './codes.js'
import { readNumber } from './number.js'
import type { PhoneProvider } from './options.js'

export async function sendCode(ctx: Context, provider: PhoneProvider, body: Body, callbackUrl: string): Promise<Reply> {
  const phone = readNumber(body, provider.defaultCountry)
  await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'phoneSms', phone, ctx.now)
  const { code } = await issueCode(ctx, codeKind(provider.id), phone)
  const text = provider.text(code, { host: new URL(ctx.origin).host, minutes: codeMinutes })
  afterAnswer(ctx, `The sign-in code by SMS (POST /signin/${provider.id})`, 'SmsSignin', () => provider.sendSms(phone, text))
  // The sign-in page, where the code is entered (the built-in one shows both steps).
  const page = ctx.config.pages.signIn ?? `${ctx.baseUrl}/signin`
  return redirect(ctx, `${page}${page.includes('?') ? '&' : '?'}${new URLSearchParams({ callbackUrl, sent: provider.id })}`)
}

export function signInWithCode(ctx: Context, provider: PhoneProvider, body: Body): Promise<Reply> {
  return postedCallback(ctx, body, 'A phone', async () => {
    const phone = readNumber(body, provider.defaultCountry)
    await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'phoneCode', phone, ctx.now)
    await spendCode(ctx, codeKind(provider.id), phone, body.code)
    return completeSignIn(ctx, signInWith(provider.id, phone))
  })
}
