/**
 * The drop-in script: `<script src="/latchkey.iife.js" data-base-path="/auth"></script>` makes one
 * global, `Latchkey`, with a ready client carrying every built-in plugin but the passkey one (its
 * own script, latchkey-passkey.iife.js, adds it) and those of the settings elements, organizations()
 * and connectedApps() among them (the settings part adds them: drop-in-settings-plugins.ts),
 * enterprise sign-in's discovery (`sso()`) included, and registers the components. Without
 * `data-service-worker` the client uses the page's worker if it includes latchkey's and registers
 * nothing; `data-service-worker="/latchkey-sw.js"` registers latchkey's own worker (never over
 * another script), "false" keeps sessions in the page. `data-locale` is the client's `locale`. A language other than English loads the
 * first time an element speaks it, from `locales/<tag>.js` beside this script (the ESM build's files).
 * What the ESM build loads only where a page needs it loads from beside this script too, the
 * first time it is needed: `latchkey-settings.js` (the account settings elements),
 * `latchkey-steps.js` (the password forms, a plugin's form, the second step) and
 * `latchkey-page-session.js` (the session kept in the page where no worker controls it). The
 * build (scripts/drop-in-parts.ts) makes them, and leaves here the modules they share with
 * this script, so there is one copy of each: one client, one set of elements, one language loader.
 */
import { createAuthClient, AuthClientError, accounts, emailCodes, identity, mfa, password, phoneCodes, sessions, sso, type ClientPlugin } from '../client/index.js'
import { defineElements } from './define-elements.js'
import { useLoader } from './words.js'

const script = document.currentScript as HTMLScriptElement | null
const data = script?.dataset ?? {}
// A classic script can import() a module: each language stays a file of its own, not inlined here.
useLoader((tag) => import(/* @vite-ignore */ new URL(`locales/${tag}.js`, script?.src || location.href).href))
const sw = data.serviceWorker
/** `client.use(plugin)`: a later script (latchkey-passkey.iife.js) adds its plugin to the client made here. */
const later: ClientPlugin<'use', (plugin: ClientPlugin) => void> = { name: 'use', setup: (kernel) => kernel.use }
export const client = createAuthClient({
  basePath: data.basePath,
  serviceWorker: sw === 'false' ? false : sw || true,
  locale: data.locale,
  // sso(): an address of a domain with an enterprise connection is offered it (only where the server has the sso plugin).
  plugins: [mfa(), password(), emailCodes(), phoneCodes(), sessions(), accounts(), identity(), sso(), later],
})
defineElements(client)
export { createAuthClient, AuthClientError, defineElements }
