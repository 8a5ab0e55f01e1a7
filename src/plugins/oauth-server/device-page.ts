/**
 * The device page (RFC 8628 §3.3) in the shared page frame, as the consent page is: the code's
 * form, the consent screen with the code to compare, and the answer. No script, no framing,
 * forms to this origin only; the code is shown left to right inside any page direction.
 */
import { escapeHtml, html, page, pageWords, pluginWords, type Context, type Reply } from 'latchkey/server'
import { refusalPage, scopeItems } from './consent-page.js'
import { deviceMessages } from './device-messages.js'
import { serverOptions } from './instance.js'
import { messages, type MessageKey } from './messages.js'
import type { ResolvedClient } from './options.js'

export type DeviceView =
  | { step: 'enter'; csrfToken: string; userCode: string; account: string; wrong?: boolean }
  | { step: 'consent'; csrfToken: string; userCode: string; client: ResolvedClient; scope: string; account: string }
  | { step: 'allowed'; client: ResolvedClient }
  | { step: 'denied'; client: ResolvedClient }
  | { step: 'refused'; why: MessageKey }

export function devicePage(ctx: Context, view: DeviceView, status: number): Reply {
  if (view.step === 'refused') return refusalPage(ctx, view.why, undefined, status)
  const words = pluginWords(ctx, deviceMessages)
  const consent = pluginWords(ctx, messages)
  const action = escapeHtml(`${ctx.baseUrl}/oauth2/device`)
  const frame = (title: string, body: string) => html(ctx, page(ctx, pageWords(ctx), title, `<h1>${escapeHtml(title)}</h1>${body}`), status)
  if (view.step === 'allowed' || view.step === 'denied') {
    const done = view.step === 'allowed'
    return frame(words.text(done ? 'deviceAllowedTitle' : 'deviceDeniedTitle'), `<p class="notice" role="status">${words.html(done ? 'deviceAllowed' : 'deviceDenied', { client: view.client.name })}</p>`)
  }
  const csrf = `<input type="hidden" name="csrfToken" value="${escapeHtml(view.csrfToken)}">`
  const signedInAs = `<p>${consent.html('consentAccount', { account: view.account })}</p>`
  if (view.step === 'enter') {
    const error = view.wrong ? `<p id="device-error" class="error" role="alert">${words.html('deviceWrong')}</p>` : ''
    const invalid = view.wrong ? ' aria-invalid="true" aria-describedby="device-error"' : ''
    const field =
      `<label for="user_code">${words.html('deviceCode')}</label>` +
      `<input id="user_code" name="user_code" value="${escapeHtml(view.userCode)}" required maxlength="64" autocomplete="off" autocapitalize="characters" spellcheck="false" dir="ltr" autofocus${invalid}>`
    return frame(words.text('deviceTitle'), `<p>${words.html('deviceLead')}</p>${error}<form method="post" action="${action}">${csrf}${field}<button>${words.html('deviceContinue')}</button></form>${signedInAs}`)
  }
  const { client } = view
  const options = serverOptions.get(ctx.config)
  const name = `<strong>${escapeHtml(client.name)}</strong>`
  const logo = client.logoUri ? `<img src="${escapeHtml(client.logoUri)}" alt="" width="48" height="48">` : ''
  const scopes = scopeItems(options.scopes, view.scope, words.lang)
  const title = consent.text('consentTitle', { client: client.name })
  const body =
    `${logo}<h1>${consent.html('consentTitle', { client: client.name }, { client: name })}</h1>` +
    `<p>${words.html('deviceCheck')} <strong dir="ltr" class="user-code">${escapeHtml(view.userCode)}</strong></p>` +
    `<p>${consent.html('consentLead', { client: client.name }, { client: name })}</p><ul class="scopes">${scopes}</ul>${signedInAs}` +
    `<form method="post" action="${action}">${csrf}<input type="hidden" name="user_code" value="${escapeHtml(view.userCode)}">` +
    `<button name="decision" value="allow">${consent.html('allow')}</button> <button name="decision" value="deny" class="secondary">${consent.html('deny')}</button></form>`
  return html(ctx, page(ctx, pageWords(ctx), title, body), status)
}
