/**
 * A way in brings its words: a plugin's renderer says its own keys in the element's language,
 * English where that language lacks one, and the element's catalogue for the rest.
 */
import { expect, test } from 'vitest'
import { browserAndServer } from './helpers.js'

const page = `<!doctype html><html lang="en"><meta charset="utf-8"><title>way in words</title>
<latchkey-signin lang="fr" id="fr"></latchkey-signin><latchkey-signin lang="de" id="de"></latchkey-signin>
<script type="module">
import { createAuthClient } from '/latchkey.js'
import { defineElements } from '/latchkey-components.js'
const render = (host, provider) => {
  const p = document.createElement('p')
  p.setAttribute('part', 'greeting')
  p.textContent = [host.t('hello', { name: provider.name }), host.t('bye'), host.t('email')].join(' | ')
  return p
}
const greeter = {
  name: 'greeter',
  setup: () => ({}),
  waysIn: [{
    knows: (p) => p.type === 'credentials',
    renderer: async () => render,
    messages: { en: { hello: 'Hello from {name}', bye: 'Bye' }, fr: { hello: 'Bonjour de {name}' } },
  }],
}
window.client = createAuthClient({ basePath: '/auth', serviceWorker: false, plugins: [greeter] })
defineElements(window.client)
window.ready = true
</script></html>`

const env = browserAndServer({ pages: { '/greeter': page } })

test("a renderer's own messages: its language's, else English, and the element's catalogue for the element's keys", async () => {
  const context = await env.browser.newContext()
  const tab = await context.newPage()
  await tab.goto(env.server.url + '/greeter')
  await tab.waitForFunction(() => window.ready === true)
  const providers = (await (await fetch(env.server.url + '/auth/providers')).json()) as Record<string, { type: string; name: string }>
  const { name } = Object.values(providers).find((p) => p.type === 'credentials')!
  const greeting = (id: string) => tab.locator(`#${id} [part="greeting"]`)
  // French has its own "hello", not "bye" (said in English); "email" is the element's key, in its catalogue.
  await expect.poll(() => greeting('fr').textContent()).toBe(`Bonjour de ${name} | Bye | Adresse e-mail`)
  await expect.poll(() => greeting('de').textContent()).toBe(`Hello from ${name} | Bye | E-Mail`)
  await context.close()
})
