/**
 * better-auth's page: its vanilla client with its defaults (`createAuthClient()` from
 * `better-auth/client`, the same origin), the view subscribed to the `useSession` store as its
 * docs show. A navigation within the app opens a second view subscribed to the same store.
 */
import { createAuthClient } from 'better-auth/client'

const client = createAuthClient()
const who = document.getElementById('who')!
const view = document.getElementById('view')!

client.useSession.subscribe(({ data, isPending }) => {
  who.textContent = isPending ? 'loading' : data?.user ? `signed in as ${data.user.email}` : 'signed out'
})
let viewing: (() => void) | undefined
addEventListener('popstate', () => {
  viewing?.()
  viewing = client.useSession.subscribe(({ data }) => (view.textContent = `${location.pathname}: ${data?.user?.email ?? 'nobody'}`))
})
;(window as unknown as { ready: boolean }).ready = true
