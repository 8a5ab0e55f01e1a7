/**
 * The drop-in script: `<script src="/latchkey.iife.js" data-base-path="/auth"></script>` makes one
 * global, `Latchkey`, with a ready client, and registers the components. Without
 * `data-service-worker` the client uses the page's worker if it includes latchkey's and registers
 * nothing; `data-service-worker="/latchkey-sw.js"` registers latchkey's own worker (never over
 * another script), "false" keeps sessions in the page. `data-locale` is the client's `locale`. A language other than English loads the
 * first time an element speaks it, from `locales/<tag>.js` beside this script (the ESM build's files).
 */
import { createAuthClient, AuthClientError } from '../client/index.js'
import { defineElements } from './define-elements.js'
import { useLoader } from './words.js'

const script = document.currentScript as HTMLScriptElement | null
const data = script?.dataset ?? {}
// A classic script can import() a module: each language stays a file of its own, not inlined here.
useLoader((tag) => import(/* @vite-ignore */ new URL(`locales/${tag}.js`, script?.src || location.href).href))
const sw = data.serviceWorker
export const client = createAuthClient({ basePath: data.basePath, serviceWorker: sw === 'false' ? false : sw || true, locale: data.locale })
defineElements(client)
export { createAuthClient, AuthClientError, defineElements }
