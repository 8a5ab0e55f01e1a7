/**
 * The provider on the built-in sign-in page, which runs without script: both steps at once, a
 * form that texts a code and a form that signs in with it. Words as the app gave them to `Phone()`.
 */
import { escapeHtml, type AppProvider } from 'latchkey/server'
import type { PhoneProvider } from './options.js'

export function phonePageForm(provider: PhoneProvider, app: AppProvider, hidden: string, signInWith: string): string {
  const words = provider.words
  const number = `<label>${escapeHtml(words.phone)} <input type="tel" name="phone" required autocomplete="tel" maxlength="40"></label>`
  const code = `<label>${escapeHtml(words.code)} <input name="code" required autocomplete="one-time-code" inputmode="numeric" maxlength="20"></label>`
  return (
    `<form method="post" action="${escapeHtml(app.signinUrl)}">${hidden}${number}<button>${escapeHtml(words.send)}</button></form>` +
    `<form method="post" action="${escapeHtml(app.callbackUrl)}">${hidden}${number}${code}<button>${signInWith}</button></form>`
  )
}
