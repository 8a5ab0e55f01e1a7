/** Moved to `src/node/handler.ts` (the `latchkey/node` entry); this path stays for the repo's own imports. */
export { toNodeHandler, toRequest } from '../node/handler.js'
