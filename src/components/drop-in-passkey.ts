/**
 * The drop-in script's passkey part: `<script src="/latchkey-passkey.iife.js"></script>` after
 * `latchkey.iife.js` adds the passkey plugin to `Latchkey.client`, so `<latchkey-signin>` shows
 * its passkey button and offers passkeys in the username field's autofill, and
 * `Latchkey.client.passkey` registers, lists and removes them. It adds `passkey` and
 * `PasskeyError` to the global. A separate file, so pages without passkeys do not load it.
 */
import type { ClientPlugin } from '../client/index.js'
import { passkey, PasskeyError } from '../client/passkey/index.js'

const dropIn = (globalThis as { Latchkey?: { client?: { use?: (plugin: ClientPlugin) => void } } }).Latchkey
if (!dropIn?.client?.use) throw new Error('latchkey-passkey.iife.js: load latchkey.iife.js first, in an earlier <script>')
dropIn.client.use(passkey())

export { passkey, PasskeyError }
