/**
 * The demo app: the SDK as an app uses it after `npm install latchkey`. One client (session reads
 * go through the service worker at /latchkey-sw.js) with every plugin; <latchkey-signin> signed
 * out, <latchkey-profile> signed in, and a panel that shows what the session engine knows.
 */
import { accounts, createAuthClient, emailCodes, identity, mfa, password, sessions } from 'latchkey'
import { defineElements } from 'latchkey/components'
import { passkey } from 'latchkey/passkey'
import { watchEngine } from './engine-peek.js'
import { createEventLog } from './event-log.js'
import { mountIdpCall } from './idp-call.js'
import { mountNotes } from './notes.js'
import { createSessionPanel } from './session-panel.js'
import { renderWhere } from './where.js'

const client = createAuthClient({ basePath: '/auth', serviceWorker: '/latchkey-sw.js', plugins: [passkey(), mfa(), password(), emailCodes(), sessions(), accounts(), identity()] })
defineElements(client)
// A failed sign-in lands here with `?error=` (the server's `pages.error`): <latchkey-signin> has read
// it and says it in words, signed in or out; out of the address bar, a reload does not repeat it.
const url = new URL(location.href)
if (url.searchParams.has('error')) {
  url.searchParams.delete('error')
  history.replaceState(history.state, '', url)
}

const panel = createSessionPanel(document.getElementById('session-panel')!)
const log = createEventLog(document.getElementById('event-log')!)
log.note('Tab opened')
watchEngine(client.basePath + '/session', (state) => {
  log.add(state)
  panel.show(state)
})
mountNotes(document.getElementById('notes-panel')!, client)
mountIdpCall(document.getElementById('idp-call')!, document.querySelector('latchkey-profile')!)
renderWhere(document.getElementById('where')!)

const status = () => {
  document.body.dataset.status = client.status
  panel.status(client.status)
}
client.onSessionChange(() => {
  status()
  panel.show(client.state)
})
client.getSession().then(() => {
  status()
  log.start(client.state)
  panel.show(client.state)
}, () => status())
navigator.serviceWorker?.addEventListener('controllerchange', () => {
  log.note('The session worker now serves this tab')
  panel.refresh()
})

// For trying the SDK by hand in the browser's console.
Object.assign(window, { latchkey: client })
console.info('latchkey demo: `latchkey` is the auth client (try `await latchkey.getSession()`).')
