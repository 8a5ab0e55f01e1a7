/** The SDK core as an app that passes no plugin bundles it: what `npm run bench -- client-size` calls "SDK core". */
export { createAuthClient, AuthClientError, typeOf } from '../src/client/index.js'
