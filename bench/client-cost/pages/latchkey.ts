/**
 * latchkey's page: the SDK as its docs use it, `?nosw` without the worker (the page engine).
 * The app re-reads the session when a tab becomes visible and when a view opens, as an app that
 * checks the user at those moments does: latchkey's default needs neither, so this is the worst
 * case for it.
 */
import { createAuthClient } from '../../../src/client/index.js'

const worker = !new URLSearchParams(location.search).has('nosw')
const client = createAuthClient({ serviceWorker: worker ? '/latchkey-sw.js' : false })
const who = document.getElementById('who')!
const view = document.getElementById('view')!

const render = () => {
  const user = client.session?.user
  who.textContent = client.status === 'loading' ? 'loading' : user ? `signed in as ${user.email}` : 'signed out'
}
client.onSessionChange(render)
document.addEventListener('visibilitychange', () => void (document.visibilityState === 'visible' && client.getSession().catch(() => {})))
addEventListener('popstate', async () => {
  const session = await client.getSession().catch(() => null)
  view.textContent = `${location.pathname}: ${session?.user?.email ?? 'nobody'}`
})
;(window as unknown as { ready: boolean }).ready = true
