/** latchkey/vite: the Vite plugin that serves latchkey's service worker in dev and emits it in the build. */
export { latchkey, type LatchkeyPluginOptions } from './latchkey-plugin.js'
