/**
 * The completion step's question (sign-in/complete.ts): does this sign-in need a second factor?
 * Yes where the user confirmed an authenticator app, unless the first factor was already two (a
 * passkey with user verification), the browser holds this user's session (it was asked then; with
 * `freshSecondFactor` it is asked again) or the user trusted this browser (trusted-device.ts).
 * Then no session is made: the pending sign-in is left in the browser, and the step due
 * (`SecondFactorRequired`) is the completion step's answer, a value its caller answers.
 */
import type { Context } from '../../kernel/context.js'
import { signInCallbackUrl } from '../../kernel/redirect-url.js'
import type { DueStep, FirstFactor, SecondFactorGate } from '../../kernel/types.js'
import type { ResolvedMfa } from './options.js'
import { escapeHtml } from '../../kernel/page-html.js'
import { pageWords } from '../../kernel/page-language.js'
import { pendingCookie, readPending, startPending } from './pending.js'
import { confirmedFactors, factorStore, removeFactorsMadeBefore } from './store.js'
import { forgetAllDevices, isTrustedDevice } from './trusted-device.js'
import { forHowLong } from '../../../core/for-how-long.js'

/** Whether the user must have a second factor: `mfa.required`, else `mfa.requireFor(user)`. */
async function mustHave(ctx: Context, mfa: ResolvedMfa, userId: string): Promise<boolean> {
  if (mfa.required) return true
  if (!mfa.requireFor) return false
  const user = await factorStore(ctx).getUser(userId)
  return !!user && (await mfa.requireFor(user)) === true
}

export function secondFactorGate(mfa: ResolvedMfa): SecondFactorGate {
  return {
    async check(ctx: Context, first: FirstFactor) {
      if (first.amr.includes('hwk') && first.amr.includes('user')) return
      if (first.holdsSession && !mfa.freshSecondFactor) return
      const userId = first.user.id
      if (!userId) return
      const setup = !(await confirmedFactors(ctx, userId)).length
      if (setup && !(await mustHave(ctx, mfa, userId))) return
      // Renewing a held session with freshSecondFactor asks whatever the device: that is its point.
      if (!setup && !first.holdsSession && mfa.trustDevices && (await isTrustedDevice(ctx, userId, mfa.trustDevices))) return
      const account = first.account && { provider: first.account.provider, type: first.account.type, providerAccountId: first.account.providerAccountId }
      const callbackUrl = await signInCallbackUrl(ctx)
      const link = first.link && { ...first.link, userId: undefined }
      await startPending(ctx, { userId, provider: first.provider, account, link, isNewUser: first.isNewUser, signedInAt: first.signedInAt, amr: first.amr, callbackUrl, ...(setup && { setup }) }, mfa.pendingMaxAge)
      const cookies = [pendingCookie.of(ctx)]
      if (setup) {
        return { due: 'SecondFactorSetupRequired', message: 'This account must add a second factor before signing in: enrol an authenticator app at /mfa (enroll, then confirm)', status: 401, cookies } satisfies DueStep
      }
      return { due: 'SecondFactorRequired', message: 'This account has a second factor: send a code from the authenticator app, a recovery code or an assertion by a passkey to /mfa/verify (GET /mfa/verify lists which)', status: 401, cookies } satisfies DueStep
    },
    forgetTrustedDevices: forgetAllDevices,
    async pageForm(ctx, hidden) {
      const pending = await readPending(ctx)
      // Setting up an app takes the QR code: the elements do that, not this page.
      if (!pending || pending.setup) return
      const action = escapeHtml(`${ctx.baseUrl}/mfa/verify`)
      const words = pageWords(ctx)
      const trust = mfa.trustDevices ? `<label><input type="checkbox" name="trustDevice" value="true"> ${words.html('trustDevice', { duration: forHowLong(mfa.trustDevices, words.lang) })}</label>` : ''
      const next = `<button>${words.html('continue')}</button>`
      return (
        `<form method="post" action="${action}">${hidden}<label>${words.html('appCode')} <input name="code" inputmode="numeric" autocomplete="one-time-code" required></label>${trust}${next}</form>` +
        `<details><summary>${words.html('useRecoveryCode')}</summary><form method="post" action="${action}">${hidden}<label>${words.html('recoveryCode')} <input name="recoveryCode" autocomplete="off" required></label>${trust}${next}</form></details>`
      )
    },
    onAddressProven: removeFactorsMadeBefore,
  }
}
