/**
 * node:crypto where the runtime has it (Node 20.16+, Bun, Deno), else undefined: its hashes and
 * ciphers are synchronous, a few microseconds where Web Crypto's promises cost 15 or more.
 * `getBuiltinModule` keeps latchkey free of a static `node:` import, so the same code still loads
 * on runtimes without one (they use Web Crypto).
 */
export const nodeCrypto = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:crypto') as
  | typeof import('node:crypto')
  | undefined
