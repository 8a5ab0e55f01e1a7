/**
 * The passkey on the built-in sign-in page: a form that posts the WebAuthn ceremony's answer to
 * /callback/:provider, and the small script that runs the ceremony (the page has no bundle: the
 * SDK's passkey client is not there). The form starts hidden and the script shows it where the
 * browser has WebAuthn, so no page shows a button that cannot work. The script runs inline under
 * the page's CSP, which names its hash (`SignInMethod.pageScript`).
 */
import type { AppProvider } from '../../../core/types.js'
import type { Context } from '../../kernel/context.js'
import { escapeHtml } from '../../kernel/page-html.js'
import type { PageWords } from '../../kernel/page-language.js'

export function passkeyPageForm(ctx: Context, provider: { id: string }, app: AppProvider, hidden: string, words: PageWords): string {
  const options = `${ctx.baseUrl}/webauthn-options/${encodeURIComponent(provider.id)}?action=authenticate`
  return (
    `<form method="post" action="${escapeHtml(app.callbackUrl)}" data-passkey-options="${escapeHtml(options)}" hidden>${hidden}` +
    `<input type="hidden" name="action" value="authenticate"><input type="hidden" name="data" value="">` +
    `<p class="error" role="alert" data-passkey-failed hidden>${words.html('passkeyFailed')}</p>` +
    `<button>${words.html('signInWith', { name: app.name })}</button></form>`
  )
}

/**
 * For each passkey form: the options from the server, the browser's ceremony, its answer as the
 * JSON @simplewebauthn/server reads (binary fields in base64url), then the form posted. A refusal
 * by the browser or the server shows the form's message and lets the person try again.
 */
export const passkeyPageScript = `(() => {
  const text = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '')
  const bytes = (value) => Uint8Array.from(atob(value.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))
  if (typeof PublicKeyCredential !== 'function') return
  for (const form of document.querySelectorAll('form[data-passkey-options]')) {
    const button = form.querySelector('button')
    const failed = form.querySelector('[data-passkey-failed]')
    form.hidden = false
    form.addEventListener('submit', async (event) => {
      event.preventDefault()
      button.disabled = true
      failed.hidden = true
      try {
        const answer = await fetch(form.dataset.passkeyOptions, { credentials: 'same-origin', headers: { accept: 'application/json' } })
        if (!answer.ok) throw new Error('options: ' + answer.status)
        const { options } = await answer.json()
        const publicKey = { ...options, challenge: bytes(options.challenge), allowCredentials: (options.allowCredentials || []).map((c) => ({ ...c, id: bytes(c.id) })) }
        const credential = await navigator.credentials.get({ publicKey })
        const r = credential.response
        form.elements.namedItem('data').value = JSON.stringify({
          id: credential.id,
          rawId: text(credential.rawId),
          type: credential.type,
          authenticatorAttachment: credential.authenticatorAttachment || undefined,
          clientExtensionResults: credential.getClientExtensionResults(),
          response: { clientDataJSON: text(r.clientDataJSON), authenticatorData: text(r.authenticatorData), signature: text(r.signature), userHandle: r.userHandle ? text(r.userHandle) : undefined },
        })
        form.submit()
      } catch {
        failed.hidden = false
        button.disabled = false
      }
    })
  }
})()`
